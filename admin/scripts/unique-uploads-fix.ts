/**
 * Routes Decap's uploads and deletions through the studio's own (admin/src/unique-uploads.ts), as
 * the studio is bundled. Decap's persistMedia kept the editor's file name and, for a name already in
 * the folder, asked with window.confirm whether to replace it: on OK another page's picture was
 * deleted and replaced. Its deleteMedia deleted any picture of the folder, another page's too. Each
 * of Decap's functions is renamed and the studio's stands in its place, calling it; like
 * decap-fixes.ts, the build stops, naming this file, if an upgrade changed the text replaced.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "esbuild";
import { fileFilter } from "./decap-fixes";

export const UPLOADS_FILE = "decap-cms-core/dist/esm/actions/mediaLibrary.js";

/** Decap's function -> the studio's, which gets Decap's as its first argument. */
export const ROUTED = { persistMedia: "persistUnique", deleteMedia: "deleteUnlessNamed" } as const;

/** The text each routing replaces: the function's first line, once in the file. */
export const routedLine = (decap: string) => `export function ${decap}(file, opts = {}) {`;

export function uniqueUploadsFix(): Plugin {
  const studio = path.resolve(__dirname, "../src/unique-uploads.ts");
  return {
    name: "unique-uploads",
    setup(build) {
      build.onLoad({ filter: fileFilter(UPLOADS_FILE) }, async (args) => {
        let source = await fs.promises.readFile(args.path, "utf8");
        for (const [decap, own] of Object.entries(ROUTED)) {
          const line = routedLine(decap);
          if (source.split(line).length !== 2)
            return {
              errors: [
                { text: `Decap's ${args.path} has changed: check admin/scripts/unique-uploads-fix.ts (${decap})` },
              ],
            };
          const renamed = `decap${decap[0]!.toUpperCase()}${decap.slice(1)}`;
          source = source.replace(
            line,
            `${line}\n  return ${own}(${renamed}, file, opts);\n}\nfunction ${renamed}(file, opts = {}) {`,
          );
        }
        const own = Object.values(ROUTED).join(", ");
        return { contents: `import { ${own} } from ${JSON.stringify(studio)};\n${source}`, loader: "js" };
      });
    },
  };
}
