import path from "node:path";
import { collectionFolder, contentFiles, isCollection } from "./content-files";
import { humanize } from "./humanize";
import { readSchemas, type JsonSchema, type SchemaSource } from "./graphql-types";
import { isLongText, textPlace, type TextPlace } from "./text-length-rule";
import { typedListOrNone, type TypedList } from "./typed-lists";

/**
 * The editing studio's (Decap CMS) collections, generated from the JSON Schemas in data/schemas when
 * the admin is built (admin/scripts/build.ts), so the content model stays written once: the schemas
 * drive the validation, the GraphQL types and this form. Nothing here is written by hand per field.
 *
 * Mapping:
 * - a collection of files (services/*.yaml) is a folder collection named after its folder, whose new
 *   files are named from their key field (slug, key); a collection with an `order` number is listed
 *   by it; each single file is an entry of the "pages" file collection, or of "site" for the files
 *   every page uses (site, navigation);
 * - every property is a field: its label from its name, its description as the hint, `required`
 *   from the parent's list; string -> string (text for paragraphs and long texts), integer and
 *   number -> number with minimum/maximum, boolean -> boolean, enum -> select, object -> object,
 *   array -> list with minItems/maxItems as min/max (a list of strings is a list of one field);
 *   `pattern` becomes the field's pattern and `maxLength` its `max_length` (the studio checks it);
 *   free text without a maxLength gets its `text_place`, for the studio's warning about a text far too
 *   long (the content check's rule, text-length-rule.ts);
 * - `"x-image-path"` -> image, uploaded into the images/ folder beside the file under the name its
 *   `upload_name` gives (the existing files' pattern, see uploadNames); `"x-image-min-width"` -> its
 *   `min_width`, for the studio's warning about a narrower picture (the content check's rule);
 * - a list's `count_words` name its entries for its header ("Intro: 2 paragraphs"): the description's
 *   "one entry per paragraph", the linked collection's entry (service), else the list's name;
 * - `"x-link"` (data naming other data: the dropdown names services, a gallery names approvals) ->
 *   relation to that collection by the linked field;
 * - `"x-markdown": true` (the Markdown subset of added pages) -> markdown, its toolbar limited to the
 *   subset (headings 2 and 3, bold, italic, links, lists) and no inserted blocks (pictures, code);
 * - a typed list (typed-lists.ts: the sections of an added page) -> list with `types`, one per kind,
 *   each its `title` as label, its description as hint and its first words as summary, and `typeKey`;
 *   the kind's own field (`type`) is the list's, not a field of the form;
 * - `$ref` to a definition of the same schema is followed.
 * A keyword that has no mapping (any other oneOf, a type list, ...) stops the generation, naming the schema and
 * the place in it, so that a new kind of field cannot silently go missing from the studio.
 */

export interface CmsField {
  name: string;
  label: string;
  widget: "string" | "text" | "markdown" | "number" | "boolean" | "select" | "image" | "object" | "list" | "relation";
  hint?: string;
  required?: boolean;
  pattern?: [string, string];
  /** string and text: the schema's maxLength, which the studio checks itself (admin/src/limited-widgets.tsx). */
  max_length?: number;
  /**
   * string and text: where the text is shown, for the studio's warning about a text far too long
   * (admin/src/limited-widgets.tsx).
   */
  text_place?: TextPlace;
  /**
   * A collection's key and order: no other entry may have the value (admin/src/refusing-widgets.tsx),
   * each named by its `label_field`; the key is also the file's name.
   */
  unique?: { label_field: string; file_name?: true };
  /**
   * An added page's key, which is its address (/<value>): the studio refuses one the site has (admin/src/refusals.ts).
   */
  page_address?: true;
  default?: unknown;
  /** number */
  value_type?: "int" | "float";
  min?: number;
  max?: number;
  /** select */
  options?: Array<string | number>;
  /** image; `min_width`: the schema's x-image-min-width, for the studio's warning (admin/src/image-field.tsx) */
  choose_url?: boolean;
  min_width?: number;
  /**
   * image: the name of an upload, without its ending (admin/src/upload-name.ts): `{{slug}}` is the
   * entry's key, `{{n}}` the first free number ("{{slug}}-banner", "slide-{{n}}", "logo").
   */
  upload_name?: string;
  /** object, and list of objects */
  fields?: CmsField[];
  collapsed?: boolean;
  summary?: string;
  /** list of a single value */
  field?: CmsField;
  /** list of several kinds of entries (a page's sections): one object field per kind, told by `typeKey`. */
  types?: CmsField[];
  typeKey?: string;
  /** markdown: its toolbar's buttons, the blocks it may insert (none), its modes. */
  buttons?: string[];
  editor_components?: string[];
  modes?: Array<"rich_text" | "raw">;
  /** list: what its "Add" button adds */
  label_singular?: string;
  /** list: its entries in words, for its header (admin/src/list-heading.ts): "2 paragraphs", "1 paragraph". */
  count_words?: { one: string; other: string };
  /** relation */
  collection?: string;
  value_field?: string;
  search_fields?: string[];
  display_fields?: string[];
  options_length?: number;
}

export interface CmsFile {
  name: string;
  label: string;
  file: string;
  description?: string;
  media_folder: string;
  public_folder: string;
  fields: CmsField[];
}

export interface CmsCollection {
  name: string;
  label: string;
  label_singular?: string;
  description?: string;
  /** The studio's own YAML format (admin/src/yaml/format.ts): a save changes only what changed. */
  format: typeof CMS_FORMAT;
  /** Folder collections */
  folder?: string;
  extension?: "yaml";
  create?: boolean;
  delete?: boolean;
  identifier_field?: string;
  slug?: string;
  summary?: string;
  sortable_fields?: Array<string | { field: string; label?: string; default_sort?: "asc" | "desc" | boolean }>;
  media_folder?: string;
  public_folder?: string;
  fields?: CmsField[];
  /** File collections */
  files?: CmsFile[];
}

/** The keywords a content schema may use: each is mapped to the form, or has nothing to map. */
const HANDLED = new Set([
  "type",
  "properties",
  "required",
  "items",
  "description",
  "pattern",
  "maxLength",
  "minimum",
  "maximum",
  "minItems",
  "maxItems",
  "enum",
  "default",
  "$ref",
  "x-image-path",
  "x-link",
  "x-markdown",
]);
/** Keywords with nothing to show in the form: checked by the content check, or about the schema itself. */
const NOT_SHOWN = new Set([
  "$schema",
  "$id",
  "title",
  "definitions",
  "$defs",
  // The content check refuses unknown fields; the form has only the schema's.
  "additionalProperties",
  // `required` already refuses an empty value (a list entry cannot be left empty in the form).
  "minLength",
  // The content check warns about a smaller image; the hint says the width.
  "x-image-min-width",
  // GraphQL type names.
  "x-graphql-type",
  // The content check resolves a path of the site; the hint says how to write one.
  "x-site-path",
  // A field required with another (bannerAlt with banner): the content check refuses one without the other; the hint
  // says so.
  "dependencies",
]);
/** The keywords of a typed list (typed-lists.ts), mapped to a list with `types`; any other use is refused. */
const TYPED_LIST = new Set(["oneOf", "discriminator"]);

/** The Markdown subset's buttons (src/node/content/markdown-subset.ts): nothing the content check would refuse. */
const MARKDOWN_BUTTONS = ["heading-two", "heading-three", "bold", "italic", "link", "bulleted-list", "numbered-list"];

/** Folders whose name is already a collection's ("pages", the fixed pages): their collection's own name. */
const FOLDER_COLLECTIONS: Record<string, { name: string; label: string; description: string; pageAddress?: true }> = {
  pages: {
    name: "added-pages",
    pageAddress: true,
    label: "Added pages",
    description:
      "Pages you add yourself, each at its own address (/careers), made of sections one under the other. The site's fixed pages (Home, About, Services, Contact ...) are under Pages.",
  },
};
const FIXED_PAGES =
  "The site's fixed pages: always there, each with its own layout; change their words and pictures here. To add a page of your own, use Added pages.";

/** The name admin/src/yaml/format.ts registers its format under. */
export const CMS_FORMAT = "yaml-lines";

/** Files shown under "Site" rather than "Pages": what every page uses. */
const SITE_WIDE = new Set(["site", "navigation"]);

/** Where uploads go, relative to the YAML file, as the content check and the build read them. */
const IMAGES = "images";

/** The studio's collections for the content files (content-files.ts) and their schemas under dataDir. */
export function cmsCollections(dataDir: string): CmsCollection[] {
  const sources = readSchemas(dataDir);
  const pages: CmsFile[] = [];
  const site: CmsFile[] = [];
  const folders: CmsCollection[] = [];
  for (const source of sources) {
    const spec = contentFiles.find((s) => s.file === source.file)!;
    const mapper = new FieldMapper(source, sources);
    const fields = mapper.fields(source.schema, "#");
    if (isCollection(spec)) {
      const folder = collectionFolder(spec);
      const key = spec.key!;
      const display = displayField(source.schema, key);
      const sortable = source.schema.properties?.order?.type;
      const own = FOLDER_COLLECTIONS[folder];
      folders.push({
        name: own?.name ?? folder,
        label: own?.label ?? humanize(folder),
        label_singular: humanize(spec.schema),
        description: own?.description ?? describe(source.schema),
        format: CMS_FORMAT,
        folder: `data/${folder}`,
        extension: "yaml",
        create: true,
        delete: true,
        identifier_field: key,
        // A new file is named from its key field: data/services/<slug>.yaml.
        slug: `{{fields.${key}}}`,
        summary: `{{fields.${display}}}`,
        ...(sortable === "number" || sortable === "integer"
          ? { sortable_fields: [{ field: "order", label: "Order on the page", default_sort: "asc" as const }, display] }
          : {}),
        ...mediaFolders(`data/${folder}`),
        fields: uploadNames(fields, true).map((f) =>
          f.name === key || f.name === "order"
            ? { ...withUnique(f, key, display), ...(f.name === key && own?.pageAddress ? { page_address: true } : {}) }
            : f,
        ),
      });
    } else {
      const name = path.posix.dirname(spec.file);
      (SITE_WIDE.has(spec.schema) ? site : pages).push({
        name,
        label: typeof source.schema.title === "string" ? source.schema.title : humanize(name),
        file: `data/${spec.file}`,
        description: describe(source.schema),
        ...mediaFolders(`data/${name}`),
        fields: uploadNames(fields, false),
      });
    }
  }
  return [
    { name: "pages", label: "Pages", description: FIXED_PAGES, format: CMS_FORMAT, files: pages },
    ...folders,
    { name: "site", label: "Site and menu", format: CMS_FORMAT, files: site },
  ];
}

/** The key and the order are the entry's own: the studio refuses one another entry has, as the check does. */
function withUnique(field: CmsField, key: string, display: string): CmsField {
  return { ...field, unique: { label_field: display, ...(field.name === key ? { file_name: true as const } : {}) } };
}

/**
 * Uploads go into the images/ folder beside the YAML file (an absolute media folder: the same for a
 * new entry, whose file does not exist yet); the field then holds images/<name>, relative to the file.
 */
function mediaFolders(folder: string): { media_folder: string; public_folder: string } {
  return { media_folder: `/${folder}/${IMAGES}`, public_folder: IMAGES };
}

/**
 * Each image field's `upload_name`, the pattern of the files already there: named after the top-level
 * field, without "image" (banner, card, logo, share), numbered inside a list (slide-1, section-1,
 * region-1), and after the entry's key first where the entries of a folder share one images/ folder
 * (quality-assurance-banner, an approval's ema).
 */
export function uploadNames(fields: CmsField[], perEntry: boolean): CmsField[] {
  const named = (field: CmsField, stem: string, inList: boolean): CmsField => {
    if (field.widget === "image") {
      const parts = [perEntry ? "{{slug}}" : "", stem, inList ? "{{n}}" : ""].filter(Boolean);
      return { ...field, upload_name: parts.join("-") || "image" };
    }
    const nested = inList || field.widget === "list";
    return {
      ...field,
      ...(field.fields ? { fields: field.fields.map((f) => named(f, stem, nested)) } : {}),
      ...(field.field ? { field: named(field.field, stem, nested) } : {}),
      // Each kind of a typed list after its own name (a page's cards: careers-card-1), never its place in the list.
      ...(field.types ? { types: field.types.map((kind) => named(kind, fileWords(kind.name), true)) } : {}),
    };
  };
  return fields.map((field) => named(field, fileWords(field.name), false));
}

/** "cardImage" -> "card", "slides" -> "slide", "image" -> "": a field's name as a file name's words. */
export function fileWords(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/(^|-)images?$/, "");
  return words.replace(/ies$/, "y").replace(/([^s])s$/, "$1");
}

const describe = (schema: JsonSchema) => (typeof schema.description === "string" ? schema.description : undefined);

/** The field that names an entry for people: the first required text after the key (menuLabel, caption). */
export function displayField(schema: JsonSchema, key: string): string {
  const required = new Set(schema.required ?? []);
  const found = Object.entries(schema.properties ?? {}).find(
    ([name, p]) =>
      name !== key && required.has(name) && p.type === "string" && !p["x-image-path"] && !p["x-link"] && !p.pattern,
  );
  return found ? found[0] : key;
}

export { humanize } from "./humanize";

class FieldMapper {
  constructor(
    private readonly source: SchemaSource,
    private readonly all: readonly SchemaSource[],
  ) {}

  private fail(pointer: string, message: string): never {
    throw new Error(`${this.source.schemaPath}${pointer === "#" ? "" : pointer}: ${message}`);
  }

  /** The fields of an object schema (a file, a nested object, a list's items), but `omit` (a typed list's key). */
  fields(raw: JsonSchema, pointer: string, omit?: string): CmsField[] {
    const { schema, at } = this.resolve(raw, pointer);
    this.checkKeywords(schema, at);
    const required = new Set(schema.required ?? []);
    return Object.entries(schema.properties ?? {})
      .filter(([name]) => name !== omit)
      .map(([name, property]) => this.field(name, property, `${at}/properties/${name}`, required.has(name)));
  }

  private field(name: string, raw: JsonSchema, pointer: string, required: boolean, listDescription?: string): CmsField {
    const { schema, at } = this.resolve(raw, pointer);
    this.checkKeywords(schema, at);
    // A property's own description wins over the one it shares with its definition.
    const hint = describe(raw) ?? describe(schema);
    const base: CmsField = { name, label: humanize(name), widget: "string", ...(hint ? { hint } : {}) };
    if (!required) base.required = false;
    if (schema.default !== undefined) base.default = schema.default;
    const type = schema.type ?? (schema.properties ? "object" : undefined);
    if (typeof type !== "string") this.fail(at, `give the field one "type" to choose its widget in the studio`);

    if (schema["x-image-path"] === true) {
      // The width also goes with the field (no field of its own): the studio warns as the check does.
      const minWidth = schema["x-image-min-width"];
      return {
        ...base,
        widget: "image",
        choose_url: false,
        ...(typeof minWidth === "number" ? { min_width: minWidth } : {}),
      };
    }
    if (schema["x-link"] !== undefined) return { ...base, ...this.relation(schema["x-link"], at) };
    if (Array.isArray(schema.enum))
      return { ...base, widget: "select", options: schema.enum as Array<string | number> };
    if (schema["x-markdown"] === true && type === "string")
      return {
        ...base,
        widget: "markdown",
        buttons: MARKDOWN_BUTTONS,
        editor_components: [],
        modes: ["rich_text", "raw"],
      };
    switch (type) {
      case "string":
        return {
          ...base,
          widget: isLongText(name, schema, listDescription) ? "text" : "string",
          ...pattern(schema),
          ...placeOf(name, schema, listDescription),
        };
      case "integer":
      case "number":
        return {
          ...base,
          widget: "number",
          value_type: type === "integer" ? "int" : "float",
          ...(typeof schema.minimum === "number" ? { min: schema.minimum } : {}),
          ...(typeof schema.maximum === "number" ? { max: schema.maximum } : {}),
        };
      case "boolean":
        return { ...base, widget: "boolean" };
      case "object":
        return { ...base, widget: "object", collapsed: false, fields: this.fields(schema, at) };
      case "array":
        return { ...base, ...this.list(name, schema, at, describe(raw) ?? describe(schema)) };
      default:
        return this.fail(at, `the type "${type}" has no widget in the studio`);
    }
  }

  private list(name: string, schema: JsonSchema, at: string, description: string | undefined): Partial<CmsField> {
    if (!schema.items || Array.isArray(schema.items)) this.fail(at, 'a list needs one schema for its items ("items")');
    const counts = {
      ...(typeof schema.minItems === "number" ? { min: schema.minItems } : {}),
      ...(typeof schema.maxItems === "number" ? { max: schema.maxItems } : {}),
    };
    const items = this.resolve(schema.items, `${at}/items`);
    const single = singular(name);
    const typed = this.typedList(items.schema, items.at);
    if (typed) {
      return {
        widget: "list",
        label_singular: humanize(single),
        count_words: countWords(name, description),
        collapsed: true,
        ...counts,
        typeKey: typed.key,
        types: typed.kinds.map((kind) => this.kind(kind, typed.key)),
      };
    }
    const itemType = items.schema.type ?? (items.schema.properties ? "object" : undefined);
    if (itemType === "object") {
      const fields = this.fields(items.schema, items.at);
      const title = fields.find((f) => f.widget === "string" || f.widget === "text");
      const words = countWords(name, description);
      return {
        widget: "list",
        // Decap's button reads "Add <label_singular>": "Add paragraph", in the words the count uses.
        label_singular: humanize(words.one),
        count_words: words,
        collapsed: true,
        ...(title ? { summary: firstWords(title.name) } : {}),
        ...counts,
        fields,
      };
    }
    // A list of single values (paragraphs, bullet points, slugs): one field per entry, stored as a YAML list.
    const field = this.field(single, schema.items, `${at}/items`, true, description);
    const words = countWords(name, description, field.collection);
    return {
      widget: "list",
      label_singular: humanize(words.one),
      count_words: words,
      // A folded entry reads as its first words; a relation (the Services menu) stays unfolded, where
      // each entry shows the chosen service's name (a summary could only show its slug).
      ...(field.widget === "relation" ? { collapsed: false } : { summary: firstWords(field.name) }),
      ...counts,
      field,
    };
  }

  /** The typed list `schema` is, if it is one; refused with the other keywords if it is another oneOf. */
  private typedList(schema: JsonSchema, at: string): TypedList | undefined {
    if (schema.discriminator === undefined) return undefined;
    this.checkKeywords(schema, at);
    return typedListOrNone(this.source.schema, schema);
  }

  /** One kind of a typed list's entries, as the list's `types` entry: an object without its key field. */
  private kind(kind: TypedList["kinds"][number], key: string): CmsField {
    const label = typeof kind.schema.title === "string" ? kind.schema.title : humanize(kind.value);
    const fields = this.fields(kind.schema, kind.pointer, key);
    const required = new Set(kind.schema.required ?? []);
    // Its first words: a heading, else its text (Markdown or not), else the label alone.
    const words =
      fields.find((f) => f.name === "heading" && required.has("heading")) ??
      fields.find((f) => f.widget === "markdown") ??
      fields.find((f) => (f.widget === "string" || f.widget === "text") && required.has(f.name));
    const hint = describe(kind.schema);
    return {
      name: kind.value,
      label,
      widget: "object",
      ...(hint ? { hint } : {}),
      collapsed: true,
      summary: words ? `${label}: ${firstWords(words.name)}` : label,
      fields,
    };
  }

  private relation(link: unknown, at: string): Partial<CmsField> {
    const { to, by } = (link ?? {}) as { to?: unknown; by?: unknown };
    const spec = contentFiles.find((s) => s.file === to);
    const target = this.all.find((s) => s.file === to);
    if (!spec || !target || !isCollection(spec)) {
      this.fail(at, `"x-link" must name a collection of files (e.g. "services/*.yaml"), found ${JSON.stringify(to)}`);
    }
    if (typeof by !== "string" || !target.schema.properties?.[by])
      this.fail(at, `"x-link" needs "by": a field of ${String(to)}`);
    const display = displayField(target.schema, by);
    return {
      widget: "relation",
      collection: collectionFolder(spec),
      value_field: by,
      search_fields: [...new Set([display, by])],
      display_fields: [display],
      options_length: 200,
    };
  }

  private resolve(schema: JsonSchema, pointer: string): { schema: JsonSchema; at: string } {
    if (schema.$ref === undefined) return { schema, at: pointer };
    const ref = schema.$ref;
    if (!ref.startsWith("#/")) this.fail(pointer, `only a $ref to a definition of the same schema is supported`);
    let target: unknown = this.source.schema;
    for (const key of ref.slice(2).split("/")) target = (target as Record<string, unknown> | undefined)?.[key];
    if (!target || typeof target !== "object") this.fail(pointer, `the $ref "${ref}" points to nothing`);
    return this.resolve(target as JsonSchema, ref);
  }

  private checkKeywords(schema: JsonSchema, at: string): void {
    const typed = schema.discriminator !== undefined && typedListOrNone(this.source.schema, schema) !== undefined;
    for (const keyword of Object.keys(schema)) {
      if (HANDLED.has(keyword) || NOT_SHOWN.has(keyword)) continue;
      if (typed && TYPED_LIST.has(keyword)) continue;
      this.fail(
        at,
        `the keyword "${keyword}" has no counterpart in the editing studio: map it in src/node/content/cms-config.ts`,
      );
    }
    if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
      this.fail(at, '"additionalProperties" other than false (a map of free names) cannot be edited in the studio');
    }
  }
}

/**
 * JSON Schema's pattern (a search, like Decap's) as Decap's pattern, and maxLength as `max_length`,
 * which the studio checks itself so that its message can give the text's length.
 */
function pattern(schema: JsonSchema): Pick<CmsField, "pattern" | "max_length"> {
  return {
    ...(typeof schema.maxLength === "number" ? { max_length: schema.maxLength } : {}),
    ...(typeof schema.pattern === "string"
      ? { pattern: [schema.pattern, "write it as the hint above describes."] }
      : {}),
  };
}

/** The text's place, for the studio's warning about text far longer than it shows well (text-length-rule.ts). */
function placeOf(name: string, schema: JsonSchema, listDescription: string | undefined): Pick<CmsField, "text_place"> {
  const place = textPlace(name, schema, listDescription);
  return place ? { text_place: place } : {};
}

/** A folded list entry's title: its own text, the first words of a paragraph. */
const firstWords = (name: string) => `{{fields.${name} | truncate(60, '…')}}`;

/**
 * A list's entries in words, for its header: what the description says one entry is ("one list entry
 * per paragraph"), an entry of the linked collection (a service, an approval), else the list's name.
 */
export function countWords(name: string, description = "", linked?: string): { one: string; other: string } {
  const per = /\bone (?:list )?entry per (\w+)/.exec(description)?.[1];
  const one = linked ? singular(linked) : (per ?? singular(name));
  return { one, other: plural(one) };
}

const plural = (word: string) => (/[^aeiou]y$/.test(word) ? `${word.slice(0, -1)}ies` : `${word}s`);

/** "paragraphs" -> "paragraph", "servicesMenu" -> "service": the label of one entry of a list. */
export function singular(name: string): string {
  const word = humanize(name).split(" ")[0]!.toLowerCase();
  return word.endsWith("ies") ? `${word.slice(0, -3)}y` : word.endsWith("s") ? word.slice(0, -1) : word;
}
