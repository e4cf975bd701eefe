import type { JsonSchema } from "./graphql-types";
import type { Segment } from "./locate";
import { kindOf } from "./typed-lists";

/** Where a value sits: its field's name and, for an entry of a list, the list's name and description. */
export interface Place {
  name: string;
  list?: { name: string; description: string | undefined };
}

export type Visitor = (property: JsonSchema, value: unknown, at: Segment[], place: Place) => void;

const describe = (schema: JsonSchema) => (typeof schema.description === "string" ? schema.description : undefined);

/** Calls `visitor` on `value` and every value inside it that the schema describes, with its schema. */
export function visit(
  root: JsonSchema,
  raw: JsonSchema,
  value: unknown,
  at: Segment[],
  visitor: Visitor,
  place: Place = { name: "" },
): void {
  const resolved = resolve(root, raw);
  // An entry of a typed list (a page's section) is described by its own kind's schema.
  const schema = kindOf(root, resolved, value) ?? resolved;
  visitor(schema, value, at, place);
  if (Array.isArray(value) && schema.items && !Array.isArray(schema.items)) {
    const items = schema.items;
    // As the studio's list field: the list's own description, else its definition's.
    const list = { name: place.name, description: describe(raw) ?? describe(schema) };
    value.forEach((item, i) => visit(root, items, item, [...at, i], visitor, { name: place.name, list }));
  } else if (value && typeof value === "object" && schema.properties) {
    for (const [name, item] of Object.entries(value)) {
      const property = schema.properties[name];
      if (property) visit(root, property, item, [...at, name], visitor, { name });
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
