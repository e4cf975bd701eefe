/**
 * A JSON Lines file that is only ever appended to, durably: append() resolves once the line is
 * on disk (fsync). Appends that arrive while a write is in progress are written together by the
 * next write (group commit), so 200 simultaneous enquiries cost a few fsyncs, not 200.
 */
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

/** Enquiries are personal data: the folder and its files are for the receiver's own user only. */
const PRIVATE = { dir: 0o700, file: 0o600 };

/**
 * Creates the data folder private (700), or takes group and other permissions away from an existing
 * one and from the files in it (600). Returns a sentence for each change, for the log.
 */
export function securePrivateFolder(dir: string): string[] {
  fsSync.mkdirSync(dir, { recursive: true, mode: PRIVATE.dir });
  const changes: string[] = [];
  const tighten = (target: string, allowed: number) => {
    const mode = fsSync.statSync(target).mode & 0o777;
    if ((mode & ~allowed) === 0) return;
    fsSync.chmodSync(target, mode & allowed);
    changes.push(`${target}: permissions ${mode.toString(8)} tightened to ${(mode & allowed).toString(8)}`);
  };
  tighten(dir, PRIVATE.dir);
  for (const entry of fsSync.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) tighten(path.join(dir, entry.name), PRIVATE.file);
  }
  return changes;
}

interface Waiting {
  line: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class AppendLog {
  private waiting: Waiting[] = [];
  private writing = false;
  private secured = false;

  constructor(readonly file: string) {}

  append(record: object): Promise<void> {
    const line = `${JSON.stringify(record)}\n`;
    return new Promise((resolve, reject) => {
      this.waiting.push({ line, resolve, reject });
      if (!this.writing) void this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    this.writing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0);
      try {
        // Once per log: a folder made by hand (or an older version) may be readable by others.
        if (!this.secured) securePrivateFolder(path.dirname(this.file));
        this.secured = true;
        await appendDurably(this.file, batch.map((w) => w.line).join(""));
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    // Set in the same turn as the empty check above, so no append can be left waiting.
    this.writing = false;
  }
}

/**
 * O_APPEND makes every write land at the end of the file even when another process appends too,
 * and a whole batch goes out in one write() call, so lines from different writers never mix.
 */
async function appendDurably(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE.dir });
  const handle = await fs.open(file, "a", PRIVATE.file);
  try {
    const isNew = (await handle.stat()).size === 0;
    const bytes = Buffer.from(text, "utf8");
    for (let offset = 0; offset < bytes.length;) {
      offset += (await handle.write(bytes, offset)).bytesWritten;
    }
    await handle.sync();
    if (isNew) await syncDirectory(dir);
  } finally {
    await handle.close();
  }
}

// A new file's name is only durable once its folder is synced too (not possible on Windows).
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort
  }
}

/** Every parseable line of a JSONL file; a torn last line (a crash mid-write) is counted, not fatal. */
export async function readJsonLines(file: string): Promise<{ records: unknown[]; damaged: number }> {
  let text: string;
  try {
    text = await fs.readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { records: [], damaged: 0 };
    throw error;
  }
  const records: unknown[] = [];
  let damaged = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      damaged += 1;
    }
  }
  return { records, damaged };
}
