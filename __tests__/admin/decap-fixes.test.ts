/**
 * @jest-environment node
 *
 * Each fix to Decap's code (admin/scripts/decap-fixes.ts) still finds the text it replaces in the
 * installed packages: an upgrade that changes it fails here, naming the fix, before any build.
 */
import fs from "node:fs";
import path from "node:path";
import { FIXES, fileFilter } from "../../admin/scripts/decap-fixes";

const modules = path.resolve(__dirname, "../../admin/node_modules");

test.each(FIXES.map((fix) => [fix.why, fix] as const))("the fix for %s applies to the installed Decap", (_, fix) => {
  const file = path.join(modules, fix.file);
  expect(fileFilter(fix.file).test(file)).toBe(true);
  expect(fs.readFileSync(file, "utf8")).toContain(fix.find);
});
