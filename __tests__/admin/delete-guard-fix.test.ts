/**
 * @jest-environment node
 *
 * The studio's routing of Decap's deletion through its guard (admin/scripts/delete-guard-fix.ts) still
 * finds the text it replaces in the installed Decap: an upgrade that changes it fails here first.
 */
import fs from "node:fs";
import path from "node:path";
import { fileFilter } from "../../admin/scripts/decap-fixes";
import { GUARDS } from "../../admin/scripts/delete-guard-fix";

test.each(GUARDS.map((g) => [g.uses, g] as const))(
  "%s: Decap's line is found, once, in the installed package",
  (_, guard) => {
    const file = path.join(path.resolve(__dirname, "../../admin/node_modules"), guard.file);
    expect(fileFilter(guard.file).test(file)).toBe(true);
    expect(fs.readFileSync(file, "utf8").split(guard.find)).toHaveLength(2);
    expect(fs.existsSync(path.resolve(__dirname, "../../admin/src", guard.module))).toBe(true);
  },
);
