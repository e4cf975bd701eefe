/**
 * @jest-environment node
 *
 * The studio's routing of uploads, deletions and saves through its own code
 * (admin/scripts/unique-uploads-fix.ts) still finds the text it replaces in the installed Decap: an
 * upgrade that changes it fails here first.
 */
import fs from "node:fs";
import path from "node:path";
import { fileFilter } from "../../admin/scripts/decap-fixes";
import { ROUTES, routedLine } from "../../admin/scripts/unique-uploads-fix";

test.each(ROUTES.map((route) => [route.decap, route] as const))(
  "Decap's %s is found, once, in the installed package",
  (_, route) => {
    const file = path.join(path.resolve(__dirname, "../../admin/node_modules"), route.file);
    expect(fileFilter(route.file).test(file)).toBe(true);
    expect(fs.readFileSync(file, "utf8").split(routedLine(route))).toHaveLength(2);
    expect(fs.existsSync(path.resolve(__dirname, "../../admin/src", route.module))).toBe(true);
  },
);
