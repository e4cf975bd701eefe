/**
 * @jest-environment node
 *
 * The studio's patch of @dnd-kit/core (admin/scripts/patch-dnd-kit.ts) applies to the installed
 * version, and refuses a source it does not know rather than shipping it unpatched. What it does for
 * an editor (Publish clicked the moment a list entry is dropped opens its menu) is the studio's
 * browser test.
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { DND_KIT_MODULE, patchDndKit } from "../../admin/scripts/patch-dnd-kit";

const adminRequire = createRequire(path.join(__dirname, "../../admin/package.json"));
const installed = path.join(path.dirname(adminRequire.resolve("@dnd-kit/core/package.json")), "dist/core.esm.js");

test("the installed @dnd-kit/core is the module the patch looks for, and it applies once", () => {
  expect(installed).toMatch(DND_KIT_MODULE);
  const source = fs.readFileSync(installed, "utf8");
  const patched = patchDndKit(source);
  expect(patched).not.toMatch(/documentListeners\.add\(EventName\.Click,\s*stopPropagation/);
  expect(patched).toContain("cyrusStopDragClick(this.props.event.target)");
  // The rest of the module is left as it was.
  expect(patched.startsWith(source.slice(0, source.indexOf("documentListeners.add(EventName.Click")))).toBe(true);
});

test("a source without dnd-kit's click listener stops the build, naming the patch", () => {
  expect(() => patchDndKit("export const nothing = 1;")).toThrow(/admin\/scripts\/patch-dnd-kit\.ts/);
});
