import fs from "node:fs";
import path from "node:path";
import probe from "probe-image-size";
import type { JsonSchema } from "./graphql-types";
import { narrowImageWarning } from "./image-width-rule";
import { locate, type LoadedFile, type Segment } from "./locate";
import type { ContentProblem } from "./problems";

/**
 * An image smaller than the place it fills looks blurred there, and nothing else says so: the build
 * scales it up without a word. The schemas give each image field the width it needs
 * (`"x-image-min-width"`, from the widest the page shows it, at twice the pixels for sharp screens);
 * a smaller file is a warning, not a stop: the page still works.
 */
export function imageSizeWarnings(file: LoadedFile, schema: JsonSchema): ContentProblem[] {
  const warnings: ContentProblem[] = [];
  visit(schema, schema, file.data, [], (property, value, at) => {
    const wanted = property["x-image-min-width"];
    if (typeof wanted !== "number" || typeof value !== "string") return;
    const abs = path.resolve(path.dirname(file.abs), value);
    if (!fs.existsSync(abs)) return; // reported as a problem already
    const size = probe.sync(fs.readFileSync(abs));
    const warning = size ? narrowImageWarning(value, size.width, wanted) : undefined;
    if (warning) warnings.push(locate(file, at, warning));
  });
  return warnings;
}

type Visitor = (property: JsonSchema, value: unknown, at: Segment[]) => void;

function visit(root: JsonSchema, raw: JsonSchema, value: unknown, at: Segment[], visitor: Visitor): void {
  const schema = resolve(root, raw);
  visitor(schema, value, at);
  if (Array.isArray(value) && schema.items && !Array.isArray(schema.items)) {
    const items = schema.items;
    value.forEach((item, i) => visit(root, items, item, [...at, i], visitor));
  } else if (value && typeof value === "object" && schema.properties) {
    for (const [name, item] of Object.entries(value)) {
      const property = schema.properties[name];
      if (property) visit(root, property, item, [...at, name], visitor);
    }
  }
}

/** Follows a `$ref` to `#/...` in the same schema (graphql-types.ts rejects any other). */
function resolve(root: JsonSchema, schema: JsonSchema, depth = 0): JsonSchema {
  if (!schema.$ref?.startsWith("#/") || depth > 8) return schema;
  let target: unknown = root;
  for (const key of schema.$ref.slice(2).split("/")) target = (target as Record<string, unknown> | undefined)?.[key];
  return target && typeof target === "object" ? resolve(root, target as JsonSchema, depth + 1) : schema;
}
