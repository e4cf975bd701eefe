/**
 * @jest-environment node
 *
 * The studio's routing of uploads and deletions through its own code (admin/scripts/unique-uploads-fix.ts)
 * still finds the text it replaces in the installed Decap: an upgrade that changes it fails here first.
 */
import fs from "node:fs";
import path from "node:path";
import { fileFilter } from "../../admin/scripts/decap-fixes";
import { ROUTED, routedLine, UPLOADS_FILE } from "../../admin/scripts/unique-uploads-fix";

test.each(Object.keys(ROUTED))("Decap's %s is found, once, in the installed package", (decap) => {
  const file = path.join(path.resolve(__dirname, "../../admin/node_modules"), UPLOADS_FILE);
  expect(fileFilter(UPLOADS_FILE).test(file)).toBe(true);
  expect(fs.readFileSync(file, "utf8").split(routedLine(decap))).toHaveLength(2);
});
