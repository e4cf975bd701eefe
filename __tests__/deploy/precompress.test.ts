/**
 * deploy/precompress.ts, on a small made-up build: a .gz and a .br beside each text file,
 * decompressing to the file exactly; made again only for files whose content changed (or whose
 * copy is missing or wrong); removed with their file. nginx itself is not needed here.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { precompress } from "../../deploy/precompress";

let dir: string;
let publicDir: string;
const page = `<!DOCTYPE html><html lang="en"><title>Home</title><body>${"<p>Clinical research in Chennai.</p>".repeat(50)}</body></html>`;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompress-"));
  publicDir = path.join(dir, "public");
  fs.mkdirSync(path.join(publicDir, "home"), { recursive: true });
  fs.writeFileSync(path.join(publicDir, "home", "index.html"), page);
  fs.writeFileSync(path.join(publicDir, "app-0123.js"), `console.log(${JSON.stringify("x".repeat(2000))});`);
  fs.writeFileSync(path.join(publicDir, "tiny.css"), "a{color:red}");
  fs.writeFileSync(path.join(publicDir, "logo.png"), Buffer.alloc(4000));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("each text file gets a .gz and a .br copy that decompress to it exactly; images and tiny files get none", async () => {
  const result = await precompress(publicDir);
  expect(result).toMatchObject({ files: 2, compressed: 2, removed: 0 });
  const html = path.join(publicDir, "home", "index.html");
  expect(zlib.gunzipSync(fs.readFileSync(`${html}.gz`)).toString()).toBe(page);
  expect(zlib.brotliDecompressSync(fs.readFileSync(`${html}.br`)).toString()).toBe(page);
  expect(fs.statSync(`${html}.br`).size).toBeLessThan(fs.statSync(`${html}.gz`).size);
  for (const none of ["tiny.css.gz", "logo.png.gz", "logo.png.br"])
    expect(fs.existsSync(path.join(publicDir, none))).toBe(false);
  // Nothing but the copies is left beside the files (no temporary file).
  expect(fs.readdirSync(publicDir).sort()).toEqual([
    "app-0123.js",
    "app-0123.js.br",
    "app-0123.js.gz",
    "home",
    "logo.png",
    "tiny.css",
  ]);
});

test("run again, it compresses only what changed, and removes the copies of files that are gone", async () => {
  await precompress(publicDir);
  const js = path.join(publicDir, "app-0123.js");
  const untouched = fs.statSync(`${js}.gz`).mtimeMs;
  fs.writeFileSync(path.join(publicDir, "home", "index.html"), page.replace("Chennai", "Guindy"));
  const again = await precompress(publicDir);
  expect(again).toMatchObject({ files: 2, compressed: 1, removed: 0 });
  for (const [copy, decompress] of [
    [".gz", zlib.gunzipSync],
    [".br", zlib.brotliDecompressSync],
  ] as const) {
    expect(decompress(fs.readFileSync(path.join(publicDir, "home", `index.html${copy}`))).toString()).toContain(
      "Guindy",
    );
  }
  expect(fs.statSync(`${js}.gz`).mtimeMs).toBe(untouched);

  fs.rmSync(js);
  const after = await precompress(publicDir);
  expect(after.removed).toBe(2);
  expect(fs.existsSync(`${js}.gz`) || fs.existsSync(`${js}.br`)).toBe(false);
});

test("a copy deleted by hand, or not holding its file's bytes, is made again even though its file did not change", async () => {
  await precompress(publicDir);
  const js = path.join(publicDir, "app-0123.js");
  fs.rmSync(`${js}.br`);
  expect((await precompress(publicDir)).compressed).toBe(1);
  expect(fs.existsSync(`${js}.br`)).toBe(true);

  // A copy of other bytes (copied in from another build, say), and one that is not gzip at all.
  fs.writeFileSync(`${js}.gz`, zlib.gzipSync("console.log(1);"));
  fs.writeFileSync(path.join(publicDir, "home", "index.html.gz"), "not gzip");
  expect((await precompress(publicDir)).compressed).toBe(2);
  expect(zlib.gunzipSync(fs.readFileSync(`${js}.gz`)).equals(fs.readFileSync(js))).toBe(true);
  expect(zlib.gunzipSync(fs.readFileSync(path.join(publicDir, "home", "index.html.gz"))).toString()).toBe(page);
});
