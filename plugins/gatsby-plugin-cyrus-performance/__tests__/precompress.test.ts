/**
 * @jest-environment node
 *
 * The build's precompressed copies: a .gz and a .br beside each text file, decompressing to the
 * file exactly; rebuilt only for files whose content changed; removed with their file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { precompress } from "../src/precompress";

let dir: string;
let publicDir: string;
let cacheFile: string;
const page = `<!DOCTYPE html><html lang="en"><title>Home</title><body>${"<p>Clinical research in Chennai.</p>".repeat(50)}</body></html>`;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "precompress-"));
  publicDir = path.join(dir, "public");
  cacheFile = path.join(dir, ".cache", "precompressed.json");
  fs.mkdirSync(path.join(publicDir, "home"), { recursive: true });
  fs.writeFileSync(path.join(publicDir, "home", "index.html"), page);
  fs.writeFileSync(path.join(publicDir, "app-0123.js"), `console.log(${JSON.stringify("x".repeat(2000))});`);
  fs.writeFileSync(path.join(publicDir, "tiny.css"), "a{color:red}");
  fs.writeFileSync(path.join(publicDir, "logo.png"), Buffer.alloc(4000));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("each text file gets a .gz and a .br copy that decompress to it exactly; images and tiny files get none", async () => {
  const result = await precompress(publicDir, cacheFile);
  expect(result).toMatchObject({ files: 2, compressed: 2, removed: 0 });
  const html = path.join(publicDir, "home", "index.html");
  expect(zlib.gunzipSync(fs.readFileSync(`${html}.gz`)).toString()).toBe(page);
  expect(zlib.brotliDecompressSync(fs.readFileSync(`${html}.br`)).toString()).toBe(page);
  expect(fs.statSync(`${html}.br`).size).toBeLessThan(fs.statSync(`${html}.gz`).size);
  for (const none of ["tiny.css.gz", "logo.png.gz", "logo.png.br"])
    expect(fs.existsSync(path.join(publicDir, none))).toBe(false);
});

test("a rebuild compresses only what changed, and removes the copies of files that are gone", async () => {
  await precompress(publicDir, cacheFile);
  const js = path.join(publicDir, "app-0123.js");
  const untouched = fs.statSync(`${js}.gz`).mtimeMs;
  fs.writeFileSync(path.join(publicDir, "home", "index.html"), page.replace("Chennai", "Guindy"));
  const again = await precompress(publicDir, cacheFile);
  expect(again).toMatchObject({ files: 2, compressed: 1, removed: 0 });
  expect(zlib.gunzipSync(fs.readFileSync(path.join(publicDir, "home", "index.html.gz"))).toString()).toContain(
    "Guindy",
  );
  expect(fs.statSync(`${js}.gz`).mtimeMs).toBe(untouched);

  fs.rmSync(js);
  const after = await precompress(publicDir, cacheFile);
  expect(after.removed).toBe(2);
  expect(fs.existsSync(`${js}.gz`) || fs.existsSync(`${js}.br`)).toBe(false);
});

test("a copy deleted by hand is made again even though its file did not change", async () => {
  await precompress(publicDir, cacheFile);
  fs.rmSync(path.join(publicDir, "app-0123.js.br"));
  expect((await precompress(publicDir, cacheFile)).compressed).toBe(1);
  expect(fs.existsSync(path.join(publicDir, "app-0123.js.br"))).toBe(true);
});
