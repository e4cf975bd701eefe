import fs from "node:fs";
import path from "node:path";
import type { JsonSchema } from "../../src/node/content/json-schema";
import { typedList } from "../../src/node/content/typed-lists";

/**
 * The kinds of section an added page may hold, read from its schema (data/schemas/page.schema.json),
 * in the schema's order: the docs' pictures and the test holding the docs to them follow the schema,
 * so a new kind of section asks for its picture without anyone listing it.
 */
export interface SectionKind {
  /** As the page's YAML names it: `picture-with-text`. */
  type: string;
  /** As the studio labels it: "Picture with text". */
  title: string;
}

export function sectionKinds(dataDir: string): SectionKind[] {
  const schema = JSON.parse(fs.readFileSync(path.join(dataDir, "schemas/page.schema.json"), "utf8")) as JsonSchema;
  const items = schema.properties?.sections?.items;
  const list = items && !Array.isArray(items) ? typedList(schema, items) : undefined;
  if (!list) throw new Error("data/schemas/page.schema.json: sections is no longer a list of kinds of section");
  return list.kinds.map((kind) => ({ type: kind.value, title: String(kind.schema.title ?? kind.value) }));
}

/** Where each kind's picture is, from the project's root; the docs link it relative to docs/. */
export const SECTION_PICTURES = "docs/images/sections";
export const pictureFile = (type: string): string => `${SECTION_PICTURES}/${type}.webp`;
