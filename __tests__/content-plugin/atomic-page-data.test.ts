/**
 * @jest-environment node
 *
 * `gatsby develop`'s page-data writes, made atomic by the content plugin (src/atomic-page-data.ts):
 * the installed Gatsby's module is the one replaced, and a write replaces the file whole (a new file
 * renamed over it), so the develop server never reads half of it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  ensureFileContentAtomically,
  writePageDataAtomically,
} from "../../plugins/gatsby-plugin-cyrus-content/src/atomic-page-data";
import { siteRequire } from "../../plugins/gatsby-plugin-cyrus-content/src/internals";

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-page-data-"))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("a write replaces the file whole: a reader holding the old one still reads all of it; nothing is left beside it", async () => {
  const file = path.join(dir, "page-data", "services", "page-data.json");
  expect(await ensureFileContentAtomically(file, '{"old":true}')).toBe(true);
  const reader = fs.openSync(file, "r");
  const inode = fs.statSync(file).ino;
  expect(await ensureFileContentAtomically(file, '{"new":true}')).toBe(true);
  // Written in place, the open file would read the new bytes, or none between truncation and write.
  expect(fs.readFileSync(reader, "utf8")).toBe('{"old":true}');
  fs.closeSync(reader);
  expect(fs.statSync(file).ino).not.toBe(inode);
  expect(fs.readFileSync(file, "utf8")).toBe('{"new":true}');
  expect(await ensureFileContentAtomically(file, '{"new":true}')).toBe(false);
  expect(fs.readdirSync(path.dirname(file))).toEqual(["page-data.json"]);
});

test("the installed Gatsby's ensureFileContent is the one replaced", () => {
  const module = siteRequire()("gatsby/dist/utils/ensure-file-content") as { ensureFileContent: unknown };
  const gatsbys = module.ensureFileContent;
  try {
    writePageDataAtomically();
    expect(module.ensureFileContent).toBe(ensureFileContentAtomically);
  } finally {
    module.ensureFileContent = gatsbys;
  }
});
