import type { JsonSchema } from "./graphql-types";
import { locate, type LoadedFile } from "./locate";
import type { ContentProblem } from "./problems";
import { singular } from "./cms-config";
import { visit } from "./schema-walk";
import { longTextWarning, textPlace } from "./text-length-rule";

/**
 * Text far longer than its place shows well (text-length-rule.ts), field by field: a warning, as in
 * the studio beside the field. A list's entry is placed as the studio names it (paragraphs -> paragraph).
 */
export function longTextWarnings(file: LoadedFile, schema: JsonSchema): ContentProblem[] {
  const warnings: ContentProblem[] = [];
  visit(schema, schema, file.data, [], (property, value, at, place) => {
    if (typeof value !== "string") return;
    const kind = place.list
      ? textPlace(singular(place.list.name), property, place.list.description)
      : textPlace(place.name, property);
    const warning = kind ? longTextWarning(value, kind) : undefined;
    if (warning) warnings.push(locate(file, at, warning));
  });
  return warnings;
}
