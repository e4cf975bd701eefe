/**
 * A JSON Lines file that is only ever appended to, durably: append() resolves once the line is
 * on disk (fsync). Appends that arrive while a write is in progress are written together by the
 * next write (group commit), so 200 simultaneous enquiries cost a few fsyncs, not 200.
 */
import fs from "node:fs/promises";
import path from "node:path";

interface Waiting {
  line: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class AppendLog {
  private waiting: Waiting[] = [];
  private writing = false;

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
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // Enquiries are personal data: readable by the receiver's own user only.
  const handle = await fs.open(file, "a", 0o600);
  try {
    const isNew = (await handle.stat()).size === 0;
    const bytes = Buffer.from(text, "utf8");
    for (let offset = 0; offset < bytes.length; ) {
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
