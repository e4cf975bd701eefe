/**
 * The lines an import of JSON-lines files could not read (./import-jsonl), kept apart, each import's
 * in a file of its own beside the data: <file>.<import time>.unreadable (enquiries.jsonl.
 * 20261126T090000000Z.unreadable; a second import in the same millisecond adds -2, -3 …), never
 * overwriting an earlier one. Earlier versions wrote <file>.unreadable: it is read the same way, its
 * modification time standing for the import's. Erasure and retention remove lines from them (./sql-store).
 */
import fs from "node:fs";
import path from "node:path";

const NAME = /^(?:enquiries|deliveries|reviews)\.jsonl(?:\.(\d{8}T\d{9}Z)(?:-\d+)?)?\.unreadable$/;

/** Writes one import's set-aside lines of `file` (its name) to a new file; its path. */
export function writeSetAside(dataDir: string, file: string, lines: string[], importedAt: number): string {
  const stamp = new Date(importedAt).toISOString().replace(/[-:.]/g, "");
  for (let n = 1; ; n += 1) {
    const target = path.join(dataDir, `${file}.${stamp}${n === 1 ? "" : `-${n}`}.unreadable`);
    try {
      // wx: an earlier import's file is never overwritten.
      fs.writeFileSync(target, lines.join("\n") + "\n", { mode: 0o600, flag: "wx" });
      return target;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
}

/**
 * Removes the lines `gone` picks (given the line and its import's time, ms) from every set-aside file
 * of the folder; a file left with no line is removed. Resolves with the number of lines removed.
 */
export function removeSetAsideLines(dataDir: string, gone: (line: string, importedAt: number) => boolean): number {
  if (!fs.existsSync(dataDir)) return 0;
  let removed = 0;
  for (const name of fs.readdirSync(dataDir)) {
    const match = NAME.exec(name);
    if (!match) continue;
    const file = path.join(dataDir, name);
    const importedAt = match[1] ? Date.parse(fromStamp(match[1])) : fs.statSync(file).mtimeMs;
    const lines = fs.readFileSync(file, "utf8").split("\n").filter(Boolean);
    const kept = lines.filter((line) => !gone(line, importedAt));
    if (kept.length === lines.length) continue;
    removed += lines.length - kept.length;
    if (kept.length === 0) fs.rmSync(file);
    else replace(file, kept.join("\n") + "\n");
  }
  return removed;
}

/**
 * A line that mentions any of the values (an address, an enquiry's id), in any case, also JSON-escaped;
 * as a whole (an@example.org is not in jan@example.org, nor in an@example.org.uk).
 */
export function mentions(line: string, values: string[]): boolean {
  const texts = [line, unescapeJson(line)];
  return values.some((value) => {
    const whole = new RegExp(`(?<![a-z0-9._%+-])${escapeRegExp(value)}(?![a-z0-9_-]|\\.[a-z0-9])`, "i");
    return texts.some((text) => whole.test(text));
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The time a line gives for itself (an enquiry's receivedAt, a delivery's or review's at), in ms;
 * undefined when a torn line has none that reads as a time.
 */
export function lineTime(line: string): number | undefined {
  const times = [...line.matchAll(/"(?:receivedAt|at)"\s*:\s*"([^"]+)"/g)]
    .map((m) => Date.parse(m[1]!))
    .filter((t) => !Number.isNaN(t));
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** The file is replaced whole (written aside, then renamed over it), never left half-written. */
function replace(file: string, text: string): void {
  const temporary = `${file}.tmp`;
  const fd = fs.openSync(temporary, "w", 0o600);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}

/** \u0040, \n and the like, as a torn line (no longer JSON) may have them; one pass, so \\n stays \n. */
function unescapeJson(line: string): string {
  return line.replace(/\\(u[0-9a-fA-F]{4}|["\\/bfnrt])/g, (_, escaped: string) =>
    escaped.length === 5
      ? String.fromCharCode(parseInt(escaped.slice(1), 16))
      : /[bfnrt]/.test(escaped)
        ? " "
        : escaped,
  );
}

function fromStamp(stamp: string): string {
  const [, y, mo, d, h, mi, s, ms] = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(\d{3})Z$/.exec(stamp)!;
  return `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`;
}
