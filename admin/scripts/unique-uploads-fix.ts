/**
 * Routes Decap's uploads, deletions and saves through the studio's own code, as the studio is bundled.
 * Decap's persistMedia kept the editor's file name and, for a name already in the folder, asked with
 * window.confirm whether to replace it: on OK another page's picture was deleted and replaced
 * (admin/src/unique-uploads.ts). Its deleteMedia deleted any picture of the folder, another page's
 * too. Its saves (persistEntry; persistUnpublishedEntry under review) wrote a picture uploaded before
 * the entry's key was typed under the collection's name (admin/src/upload-rename.ts), and said a refusal
 * only in a notice that went by, or not at all (admin/src/refusal-notice.ts, which then calls
 * upload-rename.ts). Each of Decap's functions is renamed and the studio's stands in its place,
 * calling it; like decap-fixes.ts, the build stops, naming this file, if an upgrade changed the text
 * replaced.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "esbuild";
import { fileFilter } from "./decap-fixes";

export const UPLOADS_FILE = "decap-cms-core/dist/esm/actions/mediaLibrary.js";

export interface Route {
  /** Decap's file (its ES module build) and function. */
  file: string;
  decap: string;
  /** Its parameters, as written there. */
  params: string;
  /** The studio's function, which gets Decap's as its first argument, and its module under admin/src. */
  own: string;
  module: string;
}

export const ROUTES: readonly Route[] = [
  {
    file: UPLOADS_FILE,
    decap: "persistMedia",
    params: "file, opts = {}",
    own: "persistUnique",
    module: "unique-uploads.ts",
  },
  {
    file: UPLOADS_FILE,
    decap: "deleteMedia",
    params: "file, opts = {}",
    own: "deleteUnlessNamed",
    module: "unique-uploads.ts",
  },
  {
    file: "decap-cms-core/dist/esm/actions/entries.js",
    decap: "persistEntry",
    params: "collection",
    own: "saveOrSayWhy",
    module: "refusal-notice.ts",
  },
  {
    file: "decap-cms-core/dist/esm/actions/editorialWorkflow.js",
    decap: "persistUnpublishedEntry",
    params: "collection, existingUnpublishedEntry",
    own: "saveOrSayWhy",
    module: "refusal-notice.ts",
  },
];

/** The text each routing replaces: the function's first line, once in the file. */
export const routedLine = (route: Route) => `export function ${route.decap}(${route.params}) {`;

export function uniqueUploadsFix(routes: readonly Route[] = ROUTES): Plugin {
  const files = [...new Set(routes.map((r) => r.file))];
  return {
    name: "unique-uploads",
    setup(build) {
      for (const file of files)
        build.onLoad({ filter: fileFilter(file) }, async (args) => {
          let source = await fs.promises.readFile(args.path, "utf8");
          const imports: string[] = [];
          for (const route of routes.filter((r) => r.file === file)) {
            const line = routedLine(route);
            if (source.split(line).length !== 2)
              return {
                errors: [
                  {
                    text: `Decap's ${args.path} has changed: check admin/scripts/unique-uploads-fix.ts (${route.decap})`,
                  },
                ],
              };
            const renamed = `decap${route.decap[0]!.toUpperCase()}${route.decap.slice(1)}`;
            const args_ = route.params.replace(/ = \{\}/g, "");
            source = source.replace(
              line,
              `${line}\n  return ${route.own}(${renamed}, ${args_});\n}\nfunction ${renamed}(${route.params}) {`,
            );
            const from = JSON.stringify(path.resolve(__dirname, "../src", route.module));
            imports.push(`import { ${route.own} } from ${from};`);
          }
          return { contents: `${[...new Set(imports)].join("\n")}\n${source}`, loader: "js" };
        });
    },
  };
}
