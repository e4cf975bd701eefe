/**
 * @jest-environment node
 */
import fs from "node:fs";
import path from "node:path";

/**
 * Content editors see a field's `description` as the hover and completion hint in their editor (the
 * YAML language server) and as the hint under the field in the CMS: every field of every schema in
 * data/schemas needs one, so that a field added without a hint fails here.
 */

const schemasDir = path.resolve(__dirname, "../../data/schemas");

type Schema = Record<string, unknown>;

/** Keywords whose value maps names to schemas that an editor sees as fields or named types. */
const NAMED = ["properties", "definitions", "$defs"] as const;
/** Keywords whose value maps names to subschemas that are not fields themselves. */
const MAPS = ["patternProperties", "dependencies"] as const;
/** Keywords holding one subschema, or a list of them, that are not fields themselves. */
const SUBSCHEMAS = [
  "items",
  "additionalItems",
  "additionalProperties",
  "contains",
  "not",
  "if",
  "then",
  "else",
] as const;
const LISTS = ["allOf", "anyOf", "oneOf"] as const;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A name as a JSON Pointer segment (RFC 6901). */
const segment = (name: string) => name.replace(/~/g, "~0").replace(/\//g, "~1");

interface WalkedField {
  /** e.g. site.schema.json#/properties/address/properties/city; the schema itself is site.schema.json# */
  pointer: string;
  described: boolean;
}

/**
 * Every place of a schema that needs a description: the schema itself, each property at any depth
 * (of nested objects and of list items too) and each entry of definitions and $defs.
 */
function fieldsOf(schema: unknown, pointer: string, needsDescription = true): WalkedField[] {
  if (!isSchema(schema)) return [];
  const found: WalkedField[] = [];
  if (needsDescription) {
    const { description } = schema;
    found.push({ pointer, described: typeof description === "string" && description.trim() !== "" });
  }
  for (const keyword of [...NAMED, ...MAPS]) {
    const children = schema[keyword];
    if (!isSchema(children)) continue;
    const named = (NAMED as readonly string[]).includes(keyword);
    for (const [name, child] of Object.entries(children)) {
      found.push(...fieldsOf(child, `${pointer}/${keyword}/${segment(name)}`, named));
    }
  }
  for (const keyword of [...SUBSCHEMAS, ...LISTS]) {
    const value = schema[keyword];
    if (Array.isArray(value))
      value.forEach((item, i) => found.push(...fieldsOf(item, `${pointer}/${keyword}/${i}`, false)));
    else found.push(...fieldsOf(value, `${pointer}/${keyword}`, false));
  }
  return found;
}

const schemaFiles = fs
  .readdirSync(schemasDir)
  .filter((name) => name.endsWith(".schema.json"))
  .sort();

const fields = schemaFiles.flatMap((name) =>
  fieldsOf(JSON.parse(fs.readFileSync(path.join(schemasDir, name), "utf8")), `${name}#`),
);

test("the walk finds the schemas and their fields", () => {
  expect(schemaFiles.length).toBeGreaterThan(0);
  for (const name of schemaFiles) {
    expect(fields.filter((f) => f.pointer.startsWith(`${name}#/properties/`)).length).toBeGreaterThan(0);
  }
});

test("every field of every schema has a description (the editors' hint)", () => {
  const missing = fields.filter((f) => !f.described).map((f) => f.pointer);
  // The failure lists each field to describe, e.g. site.schema.json#/properties/address/properties/city.
  expect(missing).toEqual([]);
});

test("the walk reaches nested objects, list items, definitions and $defs", () => {
  const schema = {
    description: "root",
    definitions: { page: { type: "object", properties: { title: { type: "string" } } } },
    $defs: { link: { type: "string", description: "a link" } },
    properties: {
      described: { type: "string", description: "described" },
      blank: { type: "string", description: "  " },
      address: { type: "object", description: "an address", properties: { city: { type: "string" } } },
      cards: {
        type: "array",
        description: "cards",
        items: { type: "object", properties: { title: { type: "string" } } },
      },
      sent: { $ref: "#/definitions/page" },
    },
  };
  expect(
    fieldsOf(schema, "x.schema.json#")
      .filter((f) => !f.described)
      .map((f) => f.pointer),
  ).toEqual([
    "x.schema.json#/properties/blank",
    "x.schema.json#/properties/address/properties/city",
    "x.schema.json#/properties/cards/items/properties/title",
    "x.schema.json#/properties/sent",
    "x.schema.json#/definitions/page",
    "x.schema.json#/definitions/page/properties/title",
  ]);
});
