/**
 * After the build: a gzip (.gz) and a brotli (.br) copy beside every text file in public/, at the
 * highest settings, so a web server can send them as they are (nginx's gzip_static and
 * brotli_static) instead of compressing the same bytes again for every visitor.
 *
 * Incremental: .cache/precompressed.json records the content hash each copy was made from, so a
 * rebuild compresses only files whose content changed. Copies whose file is gone are removed. A copy
 * is kept only when it is smaller than the file.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";

const TEXT = /\.(html|js|css|json|xml|txt|svg|webmanifest|map)$/;
// nginx's gzip_min_length: smaller answers are not worth compressing.
const MIN_BYTES = 256;
const COPIES = [".gz", ".br"] as const;

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

function compress(kind: (typeof COPIES)[number], data: Buffer): Promise<Buffer> {
  if (kind === ".gz") return gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION });
  return brotli(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  });
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

export interface PrecompressResult {
  files: number;
  compressed: number;
  removed: number;
  bytes: { original: number; gzip: number; brotli: number };
}

export async function precompress(publicDir: string, cacheFile: string): Promise<PrecompressResult> {
  const all = await listFiles(publicDir);
  const texts = new Set(all.filter((f) => TEXT.test(f)));
  const previous: Record<string, string> = await fs.readFile(cacheFile, "utf8").then(JSON.parse, () => ({}));
  const present = new Set(all);
  const made: Record<string, string> = {};
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
    const rel = path.relative(publicDir, file);
    const hash = crypto.createHash("sha256").update(data).digest("base64url");
    result.files += 1;
    result.bytes.original += data.length;
    const upToDate = previous[rel] === hash && COPIES.every((c) => present.has(file + c));
    for (const kind of COPIES) {
      const copy = upToDate ? await fs.readFile(file + kind) : await compress(kind, data);
      if (!upToDate) {
        if (copy.length < data.length) await fs.writeFile(file + kind, copy);
        else await fs.rm(file + kind, { force: true });
      }
      result.bytes[kind === ".gz" ? "gzip" : "brotli"] += Math.min(copy.length, data.length);
    }
    if (!upToDate) result.compressed += 1;
    made[rel] = hash;
  });
  // zlib runs on libuv's thread pool: a few at a time keep every core busy without piling up buffers.
  const queue = [...work];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) await next();
    }),
  );

  await fs.mkdir(path.dirname(cacheFile), { recursive: true });
  await fs.writeFile(cacheFile, `${JSON.stringify(made)}\n`);
  return result;
}
