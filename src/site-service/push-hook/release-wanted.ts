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

/** Written to a temporary name and renamed, so a reader never sees half a note. */
export function markReleaseWanted(folder: string, wanted: ReleaseWanted): void {
  const temporary = path.join(folder, `.${WANTED_FILE}.${crypto.randomBytes(6).toString("hex")}`);
  fs.writeFileSync(temporary, `${JSON.stringify(wanted)}\n`);
  // Readable by the release's user through the folder's group, whatever the service's umask (0077).
  fs.chmodSync(temporary, 0o660);
  fs.renameSync(temporary, path.join(folder, WANTED_FILE));
}

/**
 * Takes the note (null when none): renamed away first, so a push that arrives while it is read
 * leaves a new note for the next release rather than being lost with this one.
 */
export function takeReleaseWanted(folder: string): ReleaseWanted | null {
  const taken = path.join(folder, `.${WANTED_FILE}.taken`);
  try {
    fs.renameSync(path.join(folder, WANTED_FILE), taken);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return JSON.parse(fs.readFileSync(taken, "utf8")) as ReleaseWanted;
  } finally {
    fs.rmSync(taken, { force: true });
  }
}
