/**
 * A gzip (.gz) and a brotli (.br) copy beside every text file of a build, at the highest settings, so
 * that nginx sends them as they are (gzip_static, brotli_static) instead of compressing the same bytes
 * again for every visitor. deploy/nginx/render.ts runs it on the folder it renders the configuration
 * for. Only the nginx deployment reads these copies: a static host or CDN compresses by itself, so the
 * build does not write them.
 *
 * Run again on the same folder (a second render, or a build in place since), it keeps each copy that
 * still decompresses to its file's bytes, makes the others, and removes the copies whose file is gone.
 * A copy is kept only when it is smaller than its file.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const TEXT = /\.(html|js|css|json|xml|txt|svg|webmanifest|map)$/;
// nginx's gzip_min_length: smaller answers are not worth compressing.
const MIN_BYTES = 256;
const COPIES = [".gz", ".br"] as const;
type Copy = (typeof COPIES)[number];

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const gunzip = promisify(zlib.gunzip);
const unbrotli = promisify(zlib.brotliDecompress);

function compress(kind: Copy, data: Buffer): Promise<Buffer> {
  if (kind === ".gz") return gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION });
  return brotli(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}

/** The copy when it holds exactly `data` (decompressing is far cheaper than compressing again). */
async function currentCopy(kind: Copy, file: string, data: Buffer): Promise<Buffer | null> {
  const copy = await fs.readFile(file + kind).catch(() => null);
  if (!copy) return null;
  const content = await (kind === ".gz" ? gunzip(copy) : unbrotli(copy)).catch(() => null);
  return content?.equals(data) ? copy : null;
}

/** Whole or not at all: nginx may be serving the folder while a copy is remade. */
async function writeWhole(file: string, data: Buffer): Promise<void> {
  // A dot-file while it is written: nginx never serves those.
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  await fs.writeFile(temp, data, { mode: 0o644 });
  await fs.rename(temp, file);
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

export interface PrecompressResult {
  /** Text files large enough to compress. */
  files: number;
  /** Of those, files whose copies were made now (the others' copies were current). */
  compressed: number;
  /** Copies removed because their file is gone. */
  removed: number;
  bytes: { original: number; gzip: number; brotli: number };
}

export async function precompress(root: string): Promise<PrecompressResult> {
  const all = await listFiles(root);
  const texts = new Set(all.filter((f) => TEXT.test(f)));
  const result: PrecompressResult = { files: 0, compressed: 0, removed: 0, bytes: { original: 0, gzip: 0, brotli: 0 } };

  // Copies left from files that no longer exist (an earlier build's chunks).
  for (const file of all) {
    const copyOf = file.replace(/\.(gz|br)$/, "");
    if (copyOf !== file && TEXT.test(copyOf) && !texts.has(copyOf)) {
      await fs.rm(file, { force: true });
      result.removed += 1;
    }
  }

  const work = [...texts].map((file) => async () => {
    const data = await fs.readFile(file);
    if (data.length < MIN_BYTES) return;
    result.files += 1;
    result.bytes.original += data.length;
    let made = false;
    for (const kind of COPIES) {
      let copy = await currentCopy(kind, file, data);
      if (!copy) {
        made = true;
        copy = await compress(kind, data);
        if (copy.length < data.length) await writeWhole(file + kind, copy);
        else await fs.rm(file + kind, { force: true });
      }
      result.bytes[kind === ".gz" ? "gzip" : "brotli"] += Math.min(copy.length, data.length);
    }
    if (made) result.compressed += 1;
  });
  // zlib runs on libuv's thread pool: a few at a time keep every core busy without piling up buffers.
  const queue = [...work];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await next();
    }),
  );
  return result;
}
