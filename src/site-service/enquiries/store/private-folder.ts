/** Enquiries are personal data: the folder and its files are for the receiver's own user only. */
import fs from "node:fs";
import path from "node:path";

const PRIVATE = { dir: 0o700, file: 0o600 };

/**
 * Creates the data folder private (700), or takes group and other permissions away from an existing
 * one and from the files in it (600). Returns a sentence for each change, for the log.
 */
export function securePrivateFolder(dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE.dir });
  const changes: string[] = [];
  const tighten = (target: string, allowed: number) => {
    const mode = fs.statSync(target).mode & 0o777;
    if ((mode & ~allowed) === 0) return;
    fs.chmodSync(target, mode & allowed);
    changes.push(`${target}: permissions ${mode.toString(8)} tightened to ${(mode & allowed).toString(8)}`);
  };
  tighten(dir, PRIVATE.dir);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) tighten(path.join(dir, entry.name), PRIVATE.file);
  }
  return changes;
}
