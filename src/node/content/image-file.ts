import fs from "node:fs";
// The synchronous prober alone: the package's main module loads an HTTP client too (a fifth of the check's start).
import probeSync from "probe-image-size/sync";
import { findImageIn } from "./image-find";

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

/** Finds the picture a path names on this computer's disk (image-find.ts, reading folders here). */
export const findImage = (fromDir: string, value: string) => findImageIn(fromDir, value, readFolder);

function readFolder(dir: string): string[] | undefined {
  try {
    return fs.readdirSync(dir);
  } catch {
    return undefined;
  }
}
