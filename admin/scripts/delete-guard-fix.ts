/**
 * Routes Decap's deletion of an entry through the studio's guard (admin/src/delete-guard.ts), as the
 * studio is bundled: Decap has no event before a deletion, and deleting an entry another one names
 * (a service in the Services menu) left the site refused by the content check. The editor's Delete
 * button asks first, before Decap's confirm; the backend's deleteEntry refuses too, for every other
 * way a published entry is deleted (Unpublish, under review). The media library's Delete, likewise,
 * refuses a picture a page shows before Decap's confirm (admin/src/unique-uploads.ts). Like
 * decap-fixes.ts, the build stops, naming this file, if an upgrade changed the text replaced.
 */
import fs from "node:fs";
import path from "node:path";
import type { Plugin } from "esbuild";
import { fileFilter } from "./decap-fixes";

interface Guard {
  /** The package file, under node_modules (its ES module build). */
  file: string;
  /** The line replaced: the function's first line, once in the file. */
  find: string;
  replace: string;
  /** The studio's module and the function it gives. */
  module: string;
  uses: string;
}

export const GUARDS: readonly Guard[] = [
  {
    file: "decap-cms-core/dist/esm/components/Editor/Editor.js",
    find: "  handleDeleteEntry = () => {",
    replace:
      "  handleDeleteEntry = () => guardDelete(this.props, () => this.decapHandleDeleteEntry());\n" +
      "  decapHandleDeleteEntry = () => {",
    module: "delete-before-confirm.ts",
    uses: "guardDelete",
  },
  {
    file: "decap-cms-core/dist/esm/backend.js",
    find: "  async deleteEntry(state, collection, slug) {",
    replace:
      "  async deleteEntry(state, collection, slug) {\n" +
      "    await refuseNamedDelete(this, state, collection, slug);\n" +
      "    return this.decapDeleteEntry(state, collection, slug);\n" +
      "  }\n" +
      "  async decapDeleteEntry(state, collection, slug) {",
    module: "delete-guard.ts",
    uses: "refuseNamedDelete",
  },
  {
    // The media library's Delete: a picture a page shows is refused before Decap's confirm (its
    // deleteMedia, routed by unique-uploads-fix.ts, still keeps it whatever asks).
    file: "decap-cms-core/dist/esm/components/MediaLibrary/MediaLibrary.js",
    find: "  handleDelete = () => {",
    replace:
      "  handleDelete = () => askUnlessNamed(this.props.files, this.state.selectedFile, () => this.decapHandleDelete());\n" +
      "  decapHandleDelete = () => {",
    module: "unique-uploads.ts",
    uses: "askUnlessNamed",
  },
];

export function deleteGuardFix(guards: readonly Guard[] = GUARDS): Plugin {
  return {
    name: "delete-guard",
    setup(build) {
      for (const guard of guards)
        build.onLoad({ filter: fileFilter(guard.file) }, async (args) => {
          const source = await fs.promises.readFile(args.path, "utf8");
          if (source.split(guard.find).length !== 2)
            return {
              errors: [
                { text: `Decap's ${args.path} has changed: check admin/scripts/delete-guard-fix.ts (${guard.uses})` },
              ],
            };
          const studio = JSON.stringify(path.resolve(__dirname, "../src", guard.module));
          return {
            contents: `import { ${guard.uses} } from ${studio};\n${source.replace(guard.find, guard.replace)}`,
            loader: "js",
          };
        });
    },
  };
}
