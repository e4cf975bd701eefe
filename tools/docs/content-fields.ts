/**
 * docs/content-fields.md, the editors' reference of every field of data/, generated from the content
 * schemas (data/schemas/), the one description of the content: the page cannot drift from what the
 * check, the editor's hints and the studio say. `npx tsx tools/docs/content-fields.ts` writes it;
 * __tests__/docs/content-fields.test.ts fails while the committed page is not what this renders.
 */
import fs from "node:fs";
import path from "node:path";
import { contentFiles } from "../../src/node/content/content-files";
import type { JsonSchema } from "../../src/node/content/json-schema";
import { typedListOrNone } from "../../src/node/content/typed-lists";

export const CONTENT_FIELDS_PAGE = "docs/content-fields.md";
const GENERATOR = "tools/docs/content-fields.ts";

interface Row {
  field: string;
  needed: string;
  kind: string;
  description: string;
}

/** A schema's `$ref` to `#/...` of the same file, followed (the content schemas use no other). */
function resolve(root: JsonSchema, schema: JsonSchema): JsonSchema {
  for (let depth = 0; schema.$ref?.startsWith("#/") && depth < 8; depth++) {
    let target: unknown = root;
    for (const key of schema.$ref.slice(2).split("/")) target = (target as Record<string, unknown> | undefined)?.[key];
    if (!target || typeof target !== "object") break;
    // The referring field's own description wins over its definition's, as in the studio.
    schema = { ...(target as JsonSchema), ...(schema.description ? { description: schema.description } : {}) };
  }
  return schema;
}

/** A table cell: on one line, with what Markdown would read as a tag or a column shown as typed. */
const cell = (text: string) =>
  text.replace(/\s+/g, " ").trim().replace(/\|/g, "\\|").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A schema's words as they are typed: the Markdown they quote (`**bold**`, `[words](/contact)`) shown, not applied. */
const prose = (text: string) => cell(text.replace(/([\\`*[\]])/g, "\\$1"));

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What kind of value a field takes, and its limits, in an editor's words. */
function kindOf(schema: JsonSchema): string {
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : schema.type;
  if (schema.const !== undefined) return `\`${String(schema.const)}\``;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => `\`${String(v)}\``).join(", ")}`;
  if (schema["x-image-path"]) {
    const width = schema["x-image-min-width"];
    return `a picture's path (\`./images/…\`)${typeof width === "number" ? `, at least ${width} px wide` : ""}`;
  }
  if (schema["x-link"]) {
    const { by, to } = schema["x-link"];
    return `the ${by} of a file in \`data/${path.posix.dirname(to)}/\``;
  }
  if (schema["x-site-path"]) return "a page of the site, from its root (`/contact`)";
  if (schema["x-markdown"]) return "text in Markdown (headings, lists, links, bold, italic)";
  if (type === "string") {
    const max = schema.maxLength;
    return typeof max === "number" ? `text, at most ${max} characters` : "text";
  }
  if (type === "number" || type === "integer") {
    const { minimum: min, maximum: max } = schema;
    const whole = type === "integer" ? "a whole number" : "a number";
    if (typeof min === "number" && typeof max === "number") return `${whole} from ${min} to ${max}`;
    return whole;
  }
  if (type === "boolean") {
    return schema.default === undefined
      ? "`true` or `false`"
      : `\`true\` or \`false\` (\`${String(schema.default)}\` if left out)`;
  }
  if (type === "array") {
    const { minItems: min, maxItems: max } = schema;
    if (typeof min === "number" && typeof max === "number") return `a list of ${min} to ${max} entries`;
    if (typeof min === "number" && min > 0) return `a list, at least ${plural(min, "entry", "entries")}`;
    return "a list";
  }
  if (type === "object") return "the fields below";
  return type ?? "";
}

/** The rows of an object's fields, `prefix` before each name; typed lists are left to their own tables. */
function rowsOf(root: JsonSchema, object: JsonSchema, prefix: string, typed: Array<[string, JsonSchema]>): Row[] {
  const dependencies = (object.dependencies ?? {}) as Record<string, string[]>;
  return Object.entries(object.properties ?? {}).flatMap(([name, raw]) => {
    const schema = resolve(root, raw);
    const field = `${prefix}${name}`;
    const with_ = Object.entries(dependencies).find(([, needs]) => needs.includes(name))?.[0];
    const needed = object.required?.includes(name) ? "yes" : with_ ? `with \`${with_}\`` : "no";
    const row: Row = { field, needed, kind: kindOf(schema), description: String(schema.description ?? "") };
    if (schema.type === "object") return [row, ...rowsOf(root, schema, `${field}.`, typed)];
    const items = schema.items && !Array.isArray(schema.items) ? resolve(root, schema.items) : undefined;
    if (!items) return [row];
    if (typedListOrNone(root, items)) {
      typed.push([field, items]);
      return [row];
    }
    if (items.type === "object") return [row, ...rowsOf(root, items, `${field}[].`, typed)];
    // A list of plain values: what each entry is, when it says more than "text".
    const entry = kindOf(items);
    return [entry === "text" ? row : { ...row, kind: `${row.kind}; each ${entry}` }];
  });
}

const table = (rows: Row[]): string[] => [
  "| field | must be there | what it takes | what it is |",
  "| --- | --- | --- | --- |",
  ...rows.map((r) => `| \`${r.field}\` | ${r.needed} | ${cell(r.kind)} | ${prose(r.description)} |`),
];

/** The page, from the schemas in `schemasDir` (data/schemas/ of a project). */
export function renderContentFields(schemasDir: string): string {
  const out = [
    `<!-- GENERATED by ${GENERATOR} from data/schemas/: do not edit; run \`npx tsx ${GENERATOR}\` again. -->`,
    "",
    "# Every field of the content",
    "",
    "For editors, to look a field up: every file of `data/`, each of its fields, whether it must be there,",
    "what it takes and what it controls, in the words the editor's hints and the studio show (all come from",
    "the file's schema in `data/schemas/`). A field of a list's entries is written `list[].field`. The",
    "guides are [editing-content.md](editing-content.md) and [editing-studio.md](editing-studio.md); what",
    "the check says is in [content-reference.md](content-reference.md).",
  ];
  for (const source of contentFiles) {
    const root = JSON.parse(
      fs.readFileSync(path.join(schemasDir, `${source.schema}.schema.json`), "utf8"),
    ) as JsonSchema;
    const file = `data/${source.file.replace("*", `<${source.key ?? "name"}>`)}`;
    const typed: Array<[string, JsonSchema]> = [];
    const rows = rowsOf(root, root, "", typed);
    // The schemas of collections name their file in their title after a colon: the file is named here.
    const title = String(root.title ?? source.schema).split(":")[0]!;
    out.push("", `## ${title}: \`${file}\``, "", prose(String(root.description ?? "")));
    out.push("", ...table(rows));
    for (const [list, items] of typed) {
      for (const kind of typedListOrNone(root, items)?.kinds ?? []) {
        const title = String(kind.schema.title ?? kind.value);
        out.push("", `### ${title}: an entry of \`${list}\` with \`type: ${kind.value}\``);
        if (kind.schema.description) out.push("", prose(String(kind.schema.description)));
        out.push("", ...table(rowsOf(root, kind.schema, "", [])));
      }
    }
  }
  return `${out.join("\n")}\n`;
}

if (require.main === module) {
  const root = path.resolve(__dirname, "../..");
  fs.writeFileSync(path.join(root, CONTENT_FIELDS_PAGE), renderContentFields(path.join(root, "data/schemas")));
  console.log(`wrote ${CONTENT_FIELDS_PAGE}`);
}
