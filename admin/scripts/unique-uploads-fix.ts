/**
 * Routes every upload through the studio's own naming (admin/src/unique-uploads.ts) before Decap's
 * persistMedia, which would otherwise offer to replace a file of the same name (window.confirm) and,
 * on OK, delete it: another page's picture. Applied as decap-fixes.ts applies its fixes: the build
 * stops, naming this file, if an upgrade changed the text it replaces.
 */
import path from "node:path";

const uniqueUploads = path.resolve(__dirname, "../src/unique-uploads.ts");

export const UPLOAD_FIXES = [
  {
    file: "decap-cms-core/dist/esm/actions/mediaLibrary.js",
    find: "export function persistMedia(file, opts = {}) {",
    replace: [
      `import { persistUnique } from ${JSON.stringify(uniqueUploads)};`,
      "export function persistMedia(file, opts = {}) {",
      "  return persistUnique(decapPersistMedia, file, opts);",
      "}",
      "function decapPersistMedia(file, opts = {}) {",
    ].join("\n"),
    why: "uploads saved under a name of their own, never replacing a file (admin/scripts/unique-uploads-fix.ts)",
  },
] as const;
