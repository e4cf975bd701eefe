/**
 * A patch of @dnd-kit/core, applied while esbuild bundles the studio (no install script: npm here runs
 * none). Decap's lists reorder with dnd-kit's mouse and touch sensors.
 *
 * The fault: once a drag starts, dnd-kit's pointer sensors stop every click on the page (a capture
 * listener on the document), and remove that listener only 50 ms after the drop
 * (`setTimeout(this.documentListeners.removeAll, 50)` in `AbstractPointerSensor.detach`). They mean
 * the one click the browser makes of the drag's own press and release. But the drop makes Decap
 * render the list and the preview again; on a busy machine that keeps the page's thread for longer
 * than 50 ms, and Chromium handles input before timers, so the editor's next click, on Publish say,
 * is stopped too: the menu does not open (the studio's browser test met it).
 *
 * The patch stops only that one click: the browser sends it to the nearest element holding both where
 * the press and the release were, so it is a click on the element the drag started from or on one of
 * its ancestors. A click anywhere else (the toolbar, another field) goes through at once. Checked on
 * @dnd-kit/core 6.3.1; the build fails, naming this file, when the code it replaces is not there.
 */
import fs from "node:fs";
import type { Plugin } from "esbuild";

/** The module esbuild bundles for the browser (the package's "module" entry). */
export const DND_KIT_MODULE = /[\\/]@dnd-kit[\\/]core[\\/]dist[\\/]core\.esm\.js$/;

/** The click listener dnd-kit adds when a drag starts. */
const STOP_EVERY_CLICK =
  /this\.documentListeners\.add\(EventName\.Click,\s*stopPropagation,\s*\{\s*capture:\s*true\s*\}\)/g;

const STOP_DRAG_CLICK = `
/* cyrus-website admin/scripts/patch-dnd-kit.ts: stop only the click made by the drag itself. */
function cyrusStopDragClick(dragStart) {
  return function (event) {
    const target = event.target;
    if (target && typeof target.contains === "function" && dragStart && target.contains(dragStart)) {
      event.stopPropagation();
    }
  };
}
`;

/** The patched source; throws when the code to replace is not found exactly once. */
export function patchDndKit(source: string): string {
  const found = source.match(STOP_EVERY_CLICK)?.length ?? 0;
  if (found !== 1) {
    throw new Error(
      `admin/scripts/patch-dnd-kit.ts: expected dnd-kit's click listener once in @dnd-kit/core, found it ${found} times; ` +
        "check the patch against the installed version",
    );
  }
  return (
    source.replace(
      STOP_EVERY_CLICK,
      "this.documentListeners.add(EventName.Click, cyrusStopDragClick(this.props.event.target), { capture: true })",
    ) + STOP_DRAG_CLICK
  );
}

/** The esbuild plugin: patches the module, and fails the build when the bundle did not load it. */
export function dndKitPatch(): Plugin {
  return {
    name: "patch-dnd-kit",
    setup(build) {
      let patched = false;
      build.onStart(() => {
        patched = false;
      });
      build.onLoad({ filter: DND_KIT_MODULE }, async (args) => {
        const contents = patchDndKit(await fs.promises.readFile(args.path, "utf8"));
        patched = true;
        return { contents, loader: "js" };
      });
      build.onEnd((result) => {
        const bundlesDecap = Object.keys(result.metafile?.inputs ?? {}).some((input) =>
          input.includes("decap-cms-app"),
        );
        if (bundlesDecap && !patched) {
          result.errors.push({
            id: "patch-dnd-kit",
            pluginName: "patch-dnd-kit",
            text: "admin/scripts/patch-dnd-kit.ts: the studio bundles Decap but not @dnd-kit/core's dist/core.esm.js: check where dnd-kit comes from now",
            location: null,
            notes: [],
            detail: undefined,
          });
        }
      });
    },
  };
}
