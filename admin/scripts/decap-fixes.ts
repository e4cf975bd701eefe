/**
 * Fixes to Decap CMS's own code, applied as the studio is bundled, each for a bug an editor meets,
 * not fixed upstream when written. Each names the text it replaces: when an upgrade changes that
 * text, the build stops and says which fix to check, rather than shipping the bug back silently.
 */
import fs from "node:fs";
import type { Plugin } from "esbuild";

interface Fix {
  /** The package file, under node_modules (its ES module build: the one esbuild bundles). */
  file: string;
  find: string;
  replace: string;
  why: string;
}

export const FIXES: readonly Fix[] = [
  {
    // A list of one field keeps per-value metadata (a relation's chosen entry); removing an entry
    // removed the metadata by the value itself as a key path, which Immutable refuses ("Invalid
    // keyPath: expected Ordered Collection or Array: cdms"): the × of a Services menu entry did
    // nothing. The value is the path's one key.
    file: "decap-cms-widget-list/dist/esm/ListControl.js",
    find: "const metadataRemovePath = isSingleField ? value.get(index) : value.get(index).valueSeq();",
    replace: "const metadataRemovePath = isSingleField ? [value.get(index)] : value.get(index).valueSeq();",
    why: "removing an entry of a list of relations (the Services menu's ×)",
  },
];

export function decapFixes(fixes: readonly Fix[] = FIXES): Plugin {
  return {
    name: "decap-fixes",
    setup(build) {
      for (const fix of fixes)
        build.onLoad({ filter: fileFilter(fix.file) }, async (args) => {
          const source = await fs.promises.readFile(args.path, "utf8");
          if (!source.includes(fix.find))
            return {
              errors: [
                {
                  text: `Decap's ${args.path} has changed: check the fix for ${fix.why} (admin/scripts/decap-fixes.ts)`,
                },
              ],
            };
          return { contents: source.replace(fix.find, fix.replace), loader: "js" };
        });
    },
  };
}

/** "a/b.js" -> a filter matching that path's end, with either separator. */
export function fileFilter(file: string): RegExp {
  const escaped = file.split("/").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`[\\\\/]${escaped.join("[\\\\/]")}$`);
}
