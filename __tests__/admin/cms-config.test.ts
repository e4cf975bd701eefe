/**
 * @jest-environment node
 *
 * The studio's form is generated from data/schemas when the admin is built, never written by hand or
 * committed, so it cannot go stale (like the GraphQL types). What can go wrong is a schema property
 * the generator does not map: every property of every schema must come out as a field with its label,
 * its description as the hint and its required flag, and a keyword without a mapping must stop it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { listHeading } from "../../admin/src/list-heading";
import { cmsCollections, countWords, type CmsField } from "../../src/node/content/cms-config";
import { contentFiles, isCollection } from "../../src/node/content/content-files";
import { readSchemas, type JsonSchema } from "../../src/node/content/graphql-types";

const dataDir = path.resolve(__dirname, "../../data");
const collections = cmsCollections(dataDir);
const sources = readSchemas(dataDir);

/** The fields of one content file (a files entry) or collection, by its data/ pattern. */
function fieldsOf(file: string): CmsField[] {
  for (const c of collections) {
    if (c.folder && `${c.folder.replace(/^data\//, "")}/*.yaml` === file) return c.fields!;
    const entry = c.files?.find((f) => f.file === `data/${file}`);
    if (entry) return entry.fields;
  }
  throw new Error(`${file} is not in the studio`);
}

const resolve = (root: JsonSchema, schema: JsonSchema): JsonSchema => {
  if (!schema.$ref) return schema;
  let target: unknown = root;
  for (const key of schema.$ref.slice(2).split("/")) target = (target as Record<string, unknown>)[key];
  return target as JsonSchema;
};

/** Each property against its field, at any depth: [pointer, what is wrong] for every mismatch. */
function compare(root: JsonSchema, raw: JsonSchema, fields: CmsField[], at: string, omit?: string): string[] {
  const schema = resolve(root, raw);
  const required = new Set(schema.required ?? []);
  const wrong: string[] = [];
  for (const [name, rawProperty] of Object.entries(schema.properties ?? {})) {
    if (name === omit) continue;
    const where = `${at}/${name}`;
    const field = fields.find((f) => f.name === name);
    if (!field) {
      wrong.push(`${where}: no field`);
      continue;
    }
    const property = resolve(root, rawProperty);
    const description = rawProperty.description ?? property.description;
    if (!field.label) wrong.push(`${where}: no label`);
    if (field.hint !== description) wrong.push(`${where}: the hint is not the description`);
    if ((field.required ?? true) !== required.has(name)) wrong.push(`${where}: required differs`);
    const type = property.type;
    const expected = property["x-image-path"]
      ? "image"
      : property["x-markdown"]
        ? "markdown"
        : property.enum
          ? "select"
          : property["x-link"]
            ? "relation"
            : type === "integer" || type === "number"
              ? "number"
              : type === "array" || type === "object" || type === "boolean"
                ? type === "array"
                  ? "list"
                  : type
                : ["string", "text"];
    if (![expected].flat().includes(field.widget)) wrong.push(`${where}: widget ${field.widget}, expected ${expected}`);
    if (type === "object") wrong.push(...compare(root, property, field.fields ?? [], where));
    if (type === "array") {
      if (field.min !== property.minItems) wrong.push(`${where}: min ${field.min} for minItems ${property.minItems}`);
      if (field.max !== property.maxItems) wrong.push(`${where}: max ${field.max} for maxItems ${property.maxItems}`);
      const items = resolve(root, property.items as JsonSchema);
      if (items.oneOf) {
        // A typed list: each kind a type of the list, its fields but the one that tells the kind.
        for (const branch of items.oneOf as JsonSchema[]) {
          const kind = resolve(root, branch);
          const value = kind.properties![field.typeKey!]!.const;
          const type = field.types?.find((t) => t.name === value);
          if (!type) wrong.push(`${where}/items: no type ${String(value)}`);
          else wrong.push(...compare(root, kind, type.fields ?? [], `${where}/items/${String(value)}`, field.typeKey));
        }
      } else if (items.type === "object") wrong.push(...compare(root, items, field.fields ?? [], `${where}/items`));
      else if (!field.field) wrong.push(`${where}: a list of values needs its one field`);
      else if (items["x-link"] && field.field.widget !== "relation") wrong.push(`${where}/items: not a relation`);
    }
    if (type === "string" && field.widget !== "image") {
      if (property.pattern && field.pattern?.[0] !== property.pattern) wrong.push(`${where}: pattern not mapped`);
      if (field.max_length !== property.maxLength) wrong.push(`${where}: maxLength not mapped`);
    }
  }
  return wrong;
}

test("every property of every schema is a field with its label, hint, required flag, widget and limits", () => {
  const wrong = sources.flatMap((s) => compare(s.schema, s.schema, fieldsOf(s.file), s.schemaPath));
  expect(wrong).toEqual([]);
});

test("every content file is in the studio: collections as folders named from their key, files as entries", () => {
  for (const source of contentFiles) {
    expect(() => fieldsOf(source.file)).not.toThrow();
    if (!isCollection(source)) continue;
    const collection = collections.find((c) => c.folder === `data/${path.posix.dirname(source.file)}`)!;
    expect(collection).toMatchObject({
      create: true,
      delete: true,
      identifier_field: source.key,
      slug: `{{fields.${source.key}}}`,
      extension: "yaml",
      media_folder: `/${collection.folder}/images`,
      public_folder: "images",
    });
  }
  const services = collections.find((c) => c.name === "services")!;
  expect(services.sortable_fields?.[0]).toMatchObject({ field: "order", default_sort: "asc" });
  const about = collections.find((c) => c.name === "pages")!.files!.find((f) => f.name === "about")!;
  expect(about).toMatchObject({ media_folder: "/data/about/images", public_folder: "images" });
});

test("data naming other data is a relation: the dropdown names services, a gallery names approvals", () => {
  const menu = fieldsOf("navigation/navigation.yaml").find((f) => f.name === "servicesMenu")!;
  expect(menu.field).toMatchObject({ widget: "relation", collection: "services", value_field: "slug" });
  const gallery = fieldsOf("services/*.yaml").find((f) => f.name === "gallery")!;
  expect(gallery.field).toMatchObject({ widget: "relation", collection: "approvals", value_field: "key" });
});

/** [entry key, image path, its field's upload_name] for every picture a content file names. */
function picturesOf(fields: CmsField[], value: unknown, key: string, found: Array<[string, string, string]> = []) {
  const data = (value ?? {}) as Record<string, unknown>;
  for (const field of fields) {
    const items = field.widget === "list" ? ((data[field.name] as unknown[] | undefined) ?? []) : [data[field.name]];
    for (const item of items) {
      if (field.widget === "image" && typeof item === "string") found.push([key, item, field.upload_name!]);
      if (field.fields) picturesOf(field.fields, item, key, found);
      const kind = field.types?.find((t) => t.name === (item as Record<string, unknown> | undefined)?.[field.typeKey!]);
      if (kind) picturesOf(kind.fields!, item, key, found);
      if (field.field) picturesOf([field.field], { [field.field.name]: item }, key, found);
    }
  }
  return found;
}

test("an image field's upload name is the pattern of the pictures already there", () => {
  const found: Array<[string, string, string]> = [];
  for (const source of contentFiles) {
    const folder = path.join(dataDir, path.posix.dirname(source.file));
    const files = isCollection(source)
      ? (fs.existsSync(folder) ? fs.readdirSync(folder) : []).filter((f) => f.endsWith(".yaml"))
      : [path.basename(source.file)];
    for (const file of files) {
      const data = parse(fs.readFileSync(path.join(folder, file), "utf8")) as Record<string, unknown>;
      picturesOf(fieldsOf(source.file), data, String(isCollection(source) ? data[source.key!] : ""), found);
    }
  }
  expect(found.length).toBeGreaterThan(10);
  const wrong = found.filter(([key, image, pattern]) => {
    const stem = pattern.replace("{{slug}}", key).replace("{{n}}", "\\d+");
    return !new RegExp(`^(\\./)?images/${stem}(-\\d+)?\\.\\w+$`).test(image);
  });
  expect(wrong).toEqual([]);
  // Per entry where the entries share a folder; numbered in a list.
  const services = collections.find((c) => c.name === "services")!.fields!;
  expect(services.filter((f) => f.widget === "image").map((f) => f.upload_name)).toEqual([
    "{{slug}}-banner",
    "{{slug}}-card",
  ]);
  expect(
    fieldsOf("home/home.yaml")
      .find((f) => f.name === "slides")!
      .fields!.find((f) => f.widget === "image"),
  ).toMatchObject({ upload_name: "slide-{{n}}" });
});

/** Every image field of the studio, at any depth (list fields, typed lists' kinds), with its place. */
function imageFields(fields: CmsField[], at: string, found: Array<[string, CmsField]> = []) {
  for (const field of fields) {
    const where = `${at}/${field.name}`;
    if (field.widget === "image") found.push([where, field]);
    if (field.fields) imageFields(field.fields, where, found);
    if (field.field) imageFields([field.field], where, found);
    for (const kind of field.types ?? []) imageFields(kind.fields ?? [], `${where}/${kind.name}`, found);
  }
  return found;
}

test("an image field's example name (its hint's 'e.g. ./images/…') is the name its first upload gets", () => {
  const found = collections.flatMap((c) =>
    c.folder ? imageFields(c.fields!, c.name) : (c.files ?? []).flatMap((f) => imageFields(f.fields, f.name)),
  );
  const examples = found.flatMap(([where, field]) => {
    const example = /e\.g\. \.\/images\/([\w.-]+\.(?:jpg|jpeg|png|webp|avif))/.exec(field.hint ?? "")?.[1];
    return example ? [[where, example, field.upload_name!] as const] : [];
  });
  expect(examples.length).toBeGreaterThan(3);
  // The entry's key is any slug; the first upload of a list's picture is numbered 1.
  const wrong = examples.filter(([, example, pattern]) => {
    const name = pattern.replace("{{slug}}", "[a-z0-9-]+").replace("{{n}}", "1");
    return !new RegExp(`^${name}\\.(jpg|png|webp|avif)$`).test(example);
  });
  expect(wrong).toEqual([]);
});

test("a list's header counts its entries in words: the description's, or the linked collection's", () => {
  const list = (file: string, name: string) => fieldsOf(file).find((f) => f.name === name)!;
  expect(list("services/*.yaml", "intro").count_words).toEqual({ one: "paragraph", other: "paragraphs" });
  expect(list("services/*.yaml", "gallery").count_words).toEqual({ one: "approval", other: "approvals" });
  expect(list("navigation/navigation.yaml", "servicesMenu").count_words).toEqual({ one: "service", other: "services" });
  expect(countWords("industries", "one entry per industry, shown in the order written")).toEqual({
    one: "industry",
    other: "industries",
  });
  // What Decap's list then shows above the entries (admin/src/list-heading.ts).
  const intro = list("services/*.yaml", "intro");
  expect(listHeading(intro.label, 2, intro.count_words)).toBe(`${intro.label}: 2 paragraphs`);
  expect(listHeading("Gallery", 0, list("services/*.yaml", "gallery").count_words)).toBe("Gallery: no approvals");
  expect(listHeading("Services menu", 1, { one: "service", other: "services" })).toBe("Services menu: 1 service");
  // Decap's add button reads "Add <label_singular>": the same words, never the field's name ("Add Intro").
  expect(intro.label_singular).toBe("Paragraph");
  expect(list("services/*.yaml", "gallery").label_singular).toBe("Approval");
  expect(list("navigation/navigation.yaml", "servicesMenu").label_singular).toBe("Service");
  // Without words from the configuration: Decap's own labels.
  expect(listHeading("Links", 3, undefined, "Link")).toBe("Links: 3 links");
});

test("maxLength becomes the studio's own length check, pattern Decap's pattern, which says the same as the schema", () => {
  const title = fieldsOf("about/about.yaml").find((f) => f.name === "title")!;
  expect(title).toMatchObject({ widget: "string", max_length: 60 });
  expect(title.pattern).toBeUndefined();
  const email = fieldsOf("site/site.yaml").find((f) => f.name === "email")!;
  expect(new RegExp(email.pattern![0]).test("info@example.com")).toBe(true);
  expect(new RegExp(email.pattern![0]).test("not an address")).toBe(false);
});

test("a keyword the studio cannot show stops the generation, naming the schema and the place", () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-cms-config-"));
  try {
    fs.cpSync(path.join(dataDir, "schemas"), path.join(copy, "schemas"), { recursive: true });
    const file = path.join(copy, "schemas/about.schema.json");
    const schema = JSON.parse(fs.readFileSync(file, "utf8")) as JsonSchema;
    schema.properties!.heading = { ...schema.properties!.heading, oneOf: [{ type: "string" }] };
    fs.writeFileSync(file, JSON.stringify(schema));
    expect(() => cmsCollections(copy)).toThrow(
      /schemas\/about\.schema\.json#\/properties\/heading: the keyword "oneOf" has no counterpart/,
    );
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});

describe("added pages: a collection of its own, its sections a list of several types", () => {
  const added = collections.find((c) => c.folder === "data/pages")!;
  const sections = added.fields!.find((f) => f.name === "sections")!;

  test("named apart from the fixed pages, each collection saying which pages it holds", () => {
    expect(added).toMatchObject({ name: "added-pages", label: "Added pages", media_folder: "/data/pages/images" });
    const fixed = collections.find((c) => c.name === "pages")!;
    expect(fixed.files!.length).toBeGreaterThan(0);
    expect(fixed.description).toMatch(/fixed pages.*Added pages/);
    expect(added.description).toMatch(/add yourself.*fixed pages.*under Pages/);
    expect(new Set(collections.map((c) => c.name)).size).toBe(collections.length);
  });

  test("sections are Decap's list with types, told apart by typeKey, each type labelled, hinted and summarised", () => {
    expect(sections).toMatchObject({ widget: "list", typeKey: "type", min: 1, label_singular: "Section" });
    const schema = sources.find((s) => s.file === "pages/*.yaml")!.schema;
    const kinds = Object.keys(schema.$defs as object);
    expect(sections.types!.map((t) => t.name)).toEqual(kinds);
    for (const type of sections.types!) {
      expect(type).toMatchObject({ widget: "object", label: expect.any(String), hint: expect.any(String) });
      expect(type.summary).toMatch(new RegExp(`^${type.label}`));
      // The type is the list's to write, not a field of the form.
      expect(type.fields!.map((f) => f.name)).not.toContain("type");
    }
    expect(sections.types!.find((t) => t.name === "questions")!.label).toBe("Questions and answers");
  });

  test("Markdown fields are Decap's markdown widget limited to the subset: no inserted blocks, no other headings", () => {
    const text = sections.types!.find((t) => t.name === "text")!.fields!.find((f) => f.name === "body")!;
    expect(text).toMatchObject({ widget: "markdown", editor_components: [] });
    expect(text.buttons).toEqual(
      expect.arrayContaining([
        "heading-two",
        "heading-three",
        "bold",
        "italic",
        "link",
        "bulleted-list",
        "numbered-list",
      ]),
    );
    expect(text.buttons!.filter((b) => /heading-(one|four|five|six)|code|quote|strikethrough/.test(b))).toEqual([]);
  });

  test("an upload's name follows the page and the type of section, never the section's place in the list", () => {
    const names = sections
      .types!.flatMap((t) => t.fields!.flatMap((f) => [f, ...(f.fields ?? [])]))
      .filter((f) => f.widget === "image")
      .map((f) => f.upload_name);
    expect(names).toEqual(["{{slug}}-picture-with-text-{{n}}", "{{slug}}-card-{{n}}", "{{slug}}-slideshow-{{n}}"]);
  });

  test("any other oneOf still stops the generation", () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-cms-config-"));
    try {
      fs.cpSync(path.join(dataDir, "schemas"), path.join(copy, "schemas"), { recursive: true });
      const file = path.join(copy, "schemas/page.schema.json");
      const schema = JSON.parse(fs.readFileSync(file, "utf8")) as JsonSchema;
      const items = schema.properties!.sections!.items as JsonSchema;
      delete items.discriminator;
      fs.writeFileSync(file, JSON.stringify(schema));
      expect(() => cmsCollections(copy)).toThrow(
        /schemas\/page\.schema\.json#\/properties\/sections\/items: the keyword "oneOf" has no counterpart/,
      );
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
