import fs from "node:fs";
import path from "node:path";
// The synchronous prober alone: the package's main module loads an HTTP client too (a fifth of the check's start).
import probeSync from "probe-image-size/sync";
import { similar } from "./similar";

/** What the check needs of a picture: its size on disk, and its width from its header. */
export interface ImageFile {
  bytes: number;
  /** undefined: not an image the site can read (empty, damaged, or another kind of file). */
  width: number | undefined;
}

/** The header's size is found in the first bytes (a camera's EXIF comes first, at most 64 KB a part). */
const HEAD = 512 * 1024;

/**
 * The picture at `abs`, read once per version of the file: the image path rule and the width rules
 * ask for the same file, and a 12 MB photograph is not read whole for a header at its start.
 */
const seen = new Map<string, { key: string; image: ImageFile }>();

export function readImage(abs: string): ImageFile {
  const stat = fs.statSync(abs);
  const key = `${stat.size}\0${stat.mtimeMs}`;
  const known = seen.get(abs);
  if (known?.key === key) return known.image;
  const image = { bytes: stat.size, width: widthOf(abs, stat.size) };
  seen.set(abs, { key, image });
  return image;
}

function widthOf(abs: string, bytes: number): number | undefined {
  try {
    const fd = fs.openSync(abs, "r");
    try {
      const head = Buffer.alloc(Math.min(bytes, HEAD));
      fs.readSync(fd, head, 0, head.length, 0);
      // A header longer than the head read: the whole file, as before.
      return (probeSync(head) ?? (bytes > HEAD ? probeSync(fs.readFileSync(abs)) : null))?.width;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

const IMAGE_NAME = /\.(jpe?g|png|webp|avif|gif|tiff?)$/i;

/**
 * Finds the picture a path names, folder by folder, as a web server does (letter case counts, even
 * where this computer's disk ignores it). `found`: it is there as written; otherwise `meant`, when one
 * differs only in capitals or by a slip of a letter or two (the path as it should be written).
 */
export function findImage(fromDir: string, value: string): { found: true } | { found: false; meant?: string } {
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
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return { found: false };
    }
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
