import fs from "node:fs";
import path from "node:path";
import type { JsonSchema } from "./graphql-types";
import { readImage } from "./image-file";
import { largeImageWarning, narrowImageWarning } from "./image-width-rule";
import { locate, type LoadedFile } from "./locate";
import type { ContentProblem } from "./problems";
import { visit } from "./schema-walk";

/**
 * An image smaller than the place it fills looks blurred there, and nothing else says so: the build
 * scales it up without a word. The schemas give each image field the width it needs
 * (`"x-image-min-width"`, from the widest the page shows it, at twice the pixels for sharp screens);
 * a smaller file is a warning, not a stop: the page still works. So is a picture far larger than that
 * (largeImageWarning): the page is no sharper for it, only heavier to carry.
 */
export function imageSizeWarnings(file: LoadedFile, schema: JsonSchema): ContentProblem[] {
  const warnings: ContentProblem[] = [];
  visit(schema, schema, file.data, [], (property, value, at) => {
    const wanted = property["x-image-min-width"];
    if (typeof wanted !== "number" || typeof value !== "string") return;
    const abs = path.resolve(path.dirname(file.abs), value);
    if (!fs.existsSync(abs)) return; // reported as a problem already
    const image = readImage(abs);
    if (image.width === undefined) return; // not an image the site can read: a problem already
    for (const warning of [narrowImageWarning(value, image.width, wanted), largeImageWarning(value, image, wanted)])
      if (warning) warnings.push(locate(file, at, warning));
  });
  return warnings;
}
