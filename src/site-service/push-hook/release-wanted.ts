/**
 * The only thing the internet-facing service does about a push: it writes down that a release of
 * the branch is wanted. The release runs elsewhere, as its own user (deploy/release), which takes
 * the note when it starts. Pushes that come while a release is building overwrite one note, so
 * however many arrive, they become one next release, of the newest commit.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export const WANTED_FILE = "release-wanted.json";

export interface ReleaseWanted {
  branch: string;
  commit: string;
  host: string;
  /** ISO time the push arrived. */
  at: string;
}

/** A note is about 200 bytes; anything past this is not one. */
const WANTED_LIMIT = 4096;

/**
 * Written to a temporary name and renamed, so a reader never sees half a note. The release's user
 * writes one too (a note it took but could not use goes back), in a folder the service's user can
 * write: the temporary file is made here and now (O_EXCL: never an entry that someone put at that
 * name, a link included), and its mode is set on what was opened, never through a name.
 */
export function markReleaseWanted(folder: string, wanted: ReleaseWanted): void {
  const temporary = path.join(folder, `.${WANTED_FILE}.${crypto.randomBytes(6).toString("hex")}`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  try {
    fs.writeFileSync(fd, `${JSON.stringify(wanted)}\n`);
    // Readable by the release's user through the folder's group, whatever the service's umask (0077).
    fs.fchmodSync(fd, 0o660);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, path.join(folder, WANTED_FILE));
}

/** What a refused note was, for the log line; undefined for a small regular file of one name. */
function notANote(stat: fs.Stats): string | undefined {
  if (stat.isFIFO()) return "not a regular file (a FIFO)";
  if (stat.isDirectory()) return "not a regular file (a folder)";
  if (stat.isSocket()) return "not a regular file (a socket)";
  if (!stat.isFile()) return "not a regular file (a device)";
  if (stat.size > WANTED_LIMIT) return `too large (${stat.size} bytes; a note is at most ${WANTED_LIMIT})`;
  // Another name of a file elsewhere (protected_hardlinks forbids it on most systems, not all).
  if (stat.nlink > 1) return "a hard link to another file";
  return undefined;
}

/** At most WANTED_LIMIT + 1 bytes of what `fd` holds (one more says it is too large). */
function readAtMost(fd: number): Buffer {
  const buffer = Buffer.alloc(WANTED_LIMIT + 1);
  let length = 0;
  while (length < buffer.length) {
    const read = fs.readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) break;
    length += read;
  }
  return buffer.subarray(0, length);
}

/**
 * Removes a refused entry: unlink removes the entry itself, whatever it is or points to. A folder is
 * removed only when it is empty: emptying one that another user can change while it is walked could
 * be steered, by links swapped in, to files of the release's own. Says what became of it.
 */
function remove(entry: string): string {
  try {
    fs.unlinkSync(entry);
    return "removed";
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT: removed already (the service's user can).
    if (code === "ENOENT") return "removed";
    if (code !== "EISDIR") return `left as ${path.basename(entry)} (${code})`;
  }
  try {
    fs.rmdirSync(entry);
    return "removed";
  } catch {
    return `left as ${path.basename(entry)} (a folder with files in it)`;
  }
}

function asNote(text: string): ReleaseWanted | undefined {
  try {
    const note = JSON.parse(text) as Record<string, unknown>;
    const fields = ["branch", "commit", "host", "at"] as const;
    return fields.every((field) => typeof note[field] === "string") ? (note as unknown as ReleaseWanted) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the note (null when none): renamed away first, so a push that arrives while it is read
 * leaves a new note for the next release rather than being lost with this one.
 *
 * The release's user reads it in a folder that the service's user can write, so the note is opened
 * as it is, never through a symbolic link (O_NOFOLLOW) and without waiting for a FIFO's writer
 * (O_NONBLOCK), and only a small regular file is read (fstat of what was opened: the name may have
 * been swapped since). Anything else is refused: `refused` gets a line saying what it was, it is
 * removed, and the answer is null, as for no note.
 */
export function takeReleaseWanted(
  folder: string,
  refused: (message: string) => void = (message) => console.warn(message),
): ReleaseWanted | null {
  // A name of its own each time: a refused entry that is left (a folder) never blocks the next note.
  const taken = path.join(folder, `.${WANTED_FILE}.taken-${crypto.randomBytes(6).toString("hex")}`);
  try {
    fs.renameSync(path.join(folder, WANTED_FILE), taken);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  let problem: string | undefined;
  let note: ReleaseWanted | undefined;
  let fd: number | undefined;
  try {
    const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = fs.constants;
    fd = fs.openSync(taken, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    problem = code === "ELOOP" ? "a symbolic link" : `a file that cannot be opened (${code})`;
  }
  try {
    if (fd !== undefined) {
      problem = notANote(fs.fstatSync(fd));
      if (!problem) {
        const bytes = readAtMost(fd);
        // It grew after fstat: the service's user can write it.
        if (bytes.length > WANTED_LIMIT) problem = `too large (more than ${WANTED_LIMIT} bytes)`;
        else note = asNote(bytes.toString("utf8"));
        if (!problem && !note) problem = "not a release request (JSON with its branch, commit, host and time)";
      }
    }
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  if (note && !problem) {
    fs.rmSync(taken, { force: true });
    return note;
  }
  refused(`the release request ${WANTED_FILE} is refused and ${remove(taken)}: it is ${problem}`);
  return null;
}
