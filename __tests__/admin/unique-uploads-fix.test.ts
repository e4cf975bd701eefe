/**
 * @jest-environment node
 *
 * The studio's routing of uploads through its own naming (admin/scripts/unique-uploads-fix.ts) still
 * finds the text it replaces in the installed Decap: an upgrade that changes it fails here first.
 */
import fs from "node:fs";
import path from "node:path";
import { fileFilter } from "../../admin/scripts/decap-fixes";
import { UPLOAD_FIXES } from "../../admin/scripts/unique-uploads-fix";

test.each(UPLOAD_FIXES.map((fix) => [fix.why, fix] as const))("%s: applies to the installed Decap", (_, fix) => {
  const file = path.join(path.resolve(__dirname, "../../admin/node_modules"), fix.file);
  expect(fileFilter(fix.file).test(file)).toBe(true);
  const source = fs.readFileSync(file, "utf8");
  // Once: the whole function is renamed, and the studio's stands in its place.
  expect(source.split(fix.find)).toHaveLength(2);
  expect(fix.replace).toContain("persistUnique(decapPersistMedia, file, opts)");
});
