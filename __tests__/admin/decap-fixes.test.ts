/**
 * @jest-environment node
 *
 * Each fix to Decap's code (admin/scripts/decap-fixes.ts) still finds the text it replaces in the
 * installed packages: an upgrade that changes it fails here, naming the fix, before any build. And no
 * two of the build's plugins change the same file.
 */
import fs from "node:fs";
import path from "node:path";
import { FIXES, fileFilter } from "../../admin/scripts/decap-fixes";
import { GUARDS } from "../../admin/scripts/delete-guard-fix";
import { DND_KIT_MODULE } from "../../admin/scripts/patch-dnd-kit";
import { ROUTES } from "../../admin/scripts/unique-uploads-fix";

const modules = path.resolve(__dirname, "../../admin/node_modules");

test.each(FIXES.map((fix) => [fix.why, fix] as const))("the fix for %s applies to the installed Decap", (_, fix) => {
  const file = path.join(modules, fix.file);
  expect(fileFilter(fix.file).test(file)).toBe(true);
  expect(fs.readFileSync(file, "utf8")).toContain(fix.find);
});

/**
 * esbuild loads a file through the first plugin that answers for it: a second plugin's change to the
 * same file would be left out of the studio silently (a fix to Editor.js here once undid the Delete
 * button's guard). Each file is changed by one of the build's plugins only.
 */
test("no file of Decap is changed by two of the build's plugins", () => {
  const byPlugin: Record<string, string[]> = {
    "decap-fixes.ts": FIXES.map((fix) => fix.file),
    "unique-uploads-fix.ts": ROUTES.map((route) => route.file),
    "delete-guard-fix.ts": GUARDS.map((guard) => guard.file),
    "patch-dnd-kit.ts": ["@dnd-kit/core/dist/core.esm.js"],
  };
  const owners = new Map<string, Set<string>>();
  for (const [plugin, files] of Object.entries(byPlugin))
    for (const file of files) owners.set(file, new Set([...(owners.get(file) ?? []), plugin]));
  const shared = [...owners].filter(([, plugins]) => plugins.size > 1).map(([file, plugins]) => [file, [...plugins]]);
  expect(shared).toEqual([]);
  expect(DND_KIT_MODULE.test(path.join(modules, "@dnd-kit/core/dist/core.esm.js"))).toBe(true);
});
