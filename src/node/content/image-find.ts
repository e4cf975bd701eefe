import path from "node:path";
import { similar } from "./similar";

const IMAGE_NAME = /\.(jpe?g|png|webp|avif|gif|tiff?)$/i;

/**
 * Finds the picture a path names (`readdir`: the names in a folder, from the disk for the check, from
 * the media the studio lists for the studio), folder by folder, as a web server does (letter case counts, even
 * where this computer's disk ignores it). `found`: it is there as written; otherwise `meant`, when one
 * differs only in capitals or by a slip of a letter or two (the path as it should be written).
 */
export function findImageIn(
  fromDir: string,
  value: string,
  readdir: (dir: string) => string[] | undefined,
): { found: true } | { found: false; meant?: string } {
  let dir = fromDir;
  let exact = true;
  const written: string[] = [];
  const parts = value.split("/");
  for (const [i, part] of parts.entries()) {
    if (part === "." || part === ".." || part === "") {
      dir = path.resolve(dir, part || ".");
      written.push(part);
      continue;
    }
    const names = readdir(dir);
    if (!names) return { found: false };
    const last = i === parts.length - 1;
    const name = names.includes(part)
      ? part
      : (names.find((n) => n.toLowerCase() === part.toLowerCase()) ??
        (last
          ? similar(
              part,
              names.filter((n) => IMAGE_NAME.test(n)),
            )
          : undefined));
    if (!name) return { found: false };
    exact &&= name === part;
    written.push(name);
    dir = path.join(dir, name);
  }
  return exact ? { found: true } : { found: false, meant: written.join("/") };
}
