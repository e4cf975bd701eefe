import fs from "node:fs";
import path from "node:path";
import { contentFiles } from "./content-files";
import type { JsonSchema } from "./json-schema";
import { typedList } from "./typed-lists";

/**
 * The GraphQL type definitions of the content, generated from the JSON Schemas in data/schemas, so
 * the content model is written once: the schemas drive the validation (validate.ts), editors'
 * completion, the build's GraphQL types and, through Gatsby's typegen, the TypeScript types.
 *
 * Mapping (JSON Schema draft-07):
 * - each content file is a node type named by gatsby-transformer-yaml's rule (an object file after its
 *   folder: site/site.yaml -> SiteYaml, and every file of a collection, services/*.yaml ->
 *   ServicesYaml; an array file after the file), declared `implements Node @dontInfer`;
 * - string -> String, integer -> Int, number -> Float, boolean -> Boolean; a field listed in
 *   `required` gets `!`, and so do the items of every list;
 * - an object (a nested object or a list's items) becomes a type named by `"x-graphql-type"`, or else
 *   `<parent type><Field>` as Gatsby's inference would name it (`<node type><Definition>` for a
 *   `#/definitions/...` entry); a name used in several places (or files) must describe the same fields;
 * - `"x-image-path": true` on a string: a path relative to the YAML file -> `File @fileByRelativePath`;
 * - `"x-link": { "to": "services/*.yaml", "by": "slug" }` on a string: names an entry of another
 *   content file or collection -> `ServicesYaml @link(by: "slug")`;
 * - `"x-markdown": true` on a string: text in the Markdown subset of added pages -> `JSON @markdownSubset`,
 *   the tree `parseMarkdownSubset` makes of it when a query asks (markdown-field.ts);
 * - a typed list's entries (typed-lists.ts: `oneOf` of `$ref`s told apart by a `discriminator`) -> a
 *   union of the kinds' object types, named by the items' `"x-graphql-type"`; Gatsby tells a union's
 *   member by `internal.type`, which YAML sub-objects lack, so `graphqlTypes` also returns each union's
 *   member by the value of its field (`type`), for its `resolveType` (schema.ts);
 * - `$ref` to a definition of the same schema (`#/definitions/...`, `#/$defs/...`) is followed.
 * Anything else (another oneOf, a type list, a map without properties, ...) is reported, naming the schema
 * file and the place in it. The x- keywords are ignored by ajv (strict: false) and by editors' tooling.
 */

export type { JsonSchema } from "./json-schema";

/** One content file and its schema. */
export interface SchemaSource {
  /** The data file or collection, relative to data/, e.g. site/site.yaml or services/*.yaml */
  file: string;
  /** Where the schema comes from, for messages, e.g. data/schemas/service.schema.json */
  schemaPath: string;
  schema: JsonSchema;
}

interface NodeType {
  name: string;
  /** The schema of the file (object file) or of its entries (array file), and where it is. */
  schema: JsonSchema;
  pointer: string;
}

interface TypeDef {
  name: string;
  header: string;
  fields: string[];
  /** schema path and JSON pointer of the first definition, for messages. */
  origin: string;
  /** A union: `header` is the whole declaration. */
  union?: true;
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
/** Fields every node has (Node), and `id`, which gatsby-transformer-yaml renames to yamlId. */
const RESERVED_FIELDS = new Set(["id", "parent", "children", "internal"]);
const SCALARS: Record<string, string> = { string: "String", integer: "Int", number: "Float", boolean: "Boolean" };

/** gatsby-transformer-yaml's node type name, e.g. services-page/services-page.yaml (object) -> ServicesPageYaml. */
export function nodeTypeName(file: string, isArray: boolean): string {
  const base = isArray
    ? path.posix.basename(file).replace(/\.ya?ml$/i, "")
    : path.posix.basename(path.posix.dirname(file));
  // The transformer uses lodash's camelCase; for lowercase words joined by - or _ that is simply this.
  if (!/^[a-z]+(?:[-_][a-z]+)*$/.test(base)) {
    throw new Error(
      `${file}: name the ${isArray ? "file" : "folder"} with lowercase words joined by hyphens (found "${base}")`,
    );
  }
  return `${base.split(/[-_]/).map(upperFirst).join("")}Yaml`;
}

/** A union of a typed list's kinds: the member type of each value of its `key` field. */
export interface TypedUnion {
  name: string;
  key: string;
  members: Record<string, string>;
}

/** The union's member type for one of its values (an entry of the typed list), as GraphQL's `resolveType`. */
export function resolveTypedUnion(union: TypedUnion): (value: unknown) => string | undefined {
  return (value) => {
    const tag = value && typeof value === "object" ? (value as Record<string, unknown>)[union.key] : undefined;
    return typeof tag === "string" ? union.members[tag] : undefined;
  };
}

/** The SDL of every content type, for `actions.createTypes`. */
export function graphqlTypeDefs(sources: readonly SchemaSource[]): string {
  return graphqlTypes(sources).sdl;
}

/** The SDL of every content type, and the unions, whose `resolveType` SDL cannot carry. */
export function graphqlTypes(sources: readonly SchemaSource[]): { sdl: string; unions: TypedUnion[] } {
  const types = new Map<string, TypeDef>();
  const unions = new Map<string, TypedUnion>();
  // All node types first: x-link may name a file that comes later.
  const nodes = new Map<string, NodeType>();
  for (const source of sources) {
    const isArray = source.schema.type === "array";
    const walker = new Walker(source, types, nodes, unions);
    const { schema, pointer } = isArray ? walker.items(source.schema, "#") : walker.resolve(source.schema, "#");
    nodes.set(source.file, { name: nodeTypeName(source.file, isArray), schema, pointer });
  }
  for (const source of sources) {
    const { name, schema, pointer } = nodes.get(source.file)!;
    const walker = new Walker(source, types, nodes, unions);
    const own = schema["x-graphql-type"];
    if (own !== undefined && own !== name) {
      walker.fail(
        pointer,
        `"x-graphql-type": "${own}" cannot rename the node type, which gatsby-transformer-yaml names ${name}`,
      );
    }
    walker.objectType(schema, pointer, name, `type ${name} implements Node @dontInfer`);
  }
  const sdl = [...types.values()]
    .map((t) => (t.union ? t.header : `${t.header} {\n${t.fields.map((f) => `  ${f}`).join("\n")}\n}`))
    .join("\n\n");
  return { sdl, unions: [...unions.values()] };
}

/** Reads every content file's schema (content-files.ts) under `dataDir` and returns their SDL. */
export function contentTypeDefs(dataDir: string): string {
  return graphqlTypeDefs(readSchemas(dataDir));
}

/** contentTypeDefs, with the unions' members for their `resolveType`. */
export function contentTypes(dataDir: string): { sdl: string; unions: TypedUnion[] } {
  return graphqlTypes(readSchemas(dataDir));
}

export function readSchemas(dataDir: string): SchemaSource[] {
  const root = path.dirname(dataDir);
  return contentFiles.map(({ file, schema }) => {
    const abs = path.join(dataDir, "schemas", `${schema}.schema.json`);
    return {
      file,
      schemaPath: path.relative(root, abs).split(path.sep).join("/"),
      schema: JSON.parse(fs.readFileSync(abs, "utf8")) as JsonSchema,
    };
  });
}

class Walker {
  /** Objects already named in this schema (a definition used by several fields is one type). */
  private readonly named = new Map<JsonSchema, string>();

  constructor(
    private readonly source: SchemaSource,
    private readonly types: Map<string, TypeDef>,
    private readonly nodes: ReadonlyMap<string, NodeType>,
    private readonly unions: Map<string, TypedUnion>,
  ) {}

  fail(pointer: string, message: string): never {
    throw new Error(`${this.where(pointer)}: ${message}`);
  }

  /** e.g. data/schemas/about.schema.json#/properties/mission */
  where(pointer: string): string {
    return pointer === "#" ? this.source.schemaPath : `${this.source.schemaPath}${pointer}`;
  }

  /** Follows `$ref`s to definitions of the same schema; returns the schema and where it is. */
  resolve(schema: JsonSchema, pointer: string, seen = new Set<string>()): { schema: JsonSchema; pointer: string } {
    if (schema.$ref === undefined) return { schema, pointer };
    const ref = schema.$ref;
    if (!ref.startsWith("#/"))
      this.fail(
        pointer,
        `only a $ref to a definition in the same schema ("#/definitions/...") is supported, not "${ref}"`,
      );
    if (seen.has(ref)) this.fail(pointer, `the $ref "${ref}" refers to itself`);
    let target: unknown = this.source.schema;
    for (const raw of ref.slice(2).split("/")) {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      target = target && typeof target === "object" ? (target as Record<string, unknown>)[key] : undefined;
    }
    if (!target || typeof target !== "object") this.fail(pointer, `the $ref "${ref}" points to nothing`);
    return this.resolve(target as JsonSchema, ref, new Set([...seen, ref]));
  }

  /** The schema of a list's items. */
  items(schema: JsonSchema, pointer: string): { schema: JsonSchema; pointer: string } {
    if (!schema.items || Array.isArray(schema.items))
      this.fail(pointer, 'a list needs one schema for all its items ("items": {...})');
    return this.resolve(schema.items, `${pointer}/items`);
  }

  /** Declares the object type `name` (or checks it matches an earlier declaration of that name). */
  objectType(schema: JsonSchema, pointer: string, name: string, header = `type ${name}`): string {
    if (!NAME.test(name)) this.fail(pointer, `"${name}" is not a valid GraphQL type name`);
    this.named.set(schema, name);
    const properties = schema.properties;
    if (!properties || Object.keys(properties).length === 0) {
      this.fail(pointer, 'an object needs "properties": a GraphQL type is made of named fields');
    }
    const def: TypeDef = { name, header, fields: [], origin: this.where(pointer) };
    const earlier = this.types.get(name);
    // Declared before its fields' types, so a type comes before the types it uses.
    if (!earlier) this.types.set(name, def);
    const required = new Set(schema.required ?? []);
    def.fields = Object.entries(properties).map(([field, property]) => {
      const at = `${pointer}/properties/${field.replace(/~/g, "~0").replace(/\//g, "~1")}`;
      if (!NAME.test(field))
        this.fail(
          at,
          `"${field}" is not a valid GraphQL field name (letters, digits and _, not starting with a digit)`,
        );
      if (RESERVED_FIELDS.has(field))
        this.fail(at, `a field cannot be called "${field}": Gatsby uses that name on every node`);
      const { type, directives } = this.fieldType(property, at, `${name}${upperFirst(field)}`);
      return `${field}: ${type}${required.has(field) ? "!" : ""}${directives}`;
    });
    if (earlier && (earlier.header !== def.header || earlier.fields.join("\n") !== def.fields.join("\n"))) {
      this.fail(
        pointer,
        `the GraphQL type ${name} is also declared at ${earlier.origin} with other fields; give one of them another "x-graphql-type" or make them the same\n` +
          `  there: ${earlier.fields.join(", ")}\n  here:  ${def.fields.join(", ")}`,
      );
    }
    return name;
  }

  /** The GraphQL type of a value, without its own `!` (the parent's `required` decides that). */
  private fieldType(raw: JsonSchema, at: string, derivedName: string): { type: string; directives: string } {
    const { schema, pointer } = this.resolve(raw, at);
    const type = schema.type ?? (schema.properties ? "object" : undefined);
    const image = schema["x-image-path"];
    const link = schema["x-link"];
    if ((image !== undefined || link !== undefined) && type !== "string") {
      this.fail(pointer, '"x-image-path" and "x-link" describe a string: add "type": "string"');
    }
    if (image === true && link !== undefined) this.fail(pointer, 'a string cannot be both "x-image-path" and "x-link"');
    if (image === true) return { type: "File", directives: " @fileByRelativePath" };
    if (schema["x-markdown"] !== undefined) {
      if (schema["x-markdown"] !== true || type !== "string" || link !== undefined)
        this.fail(pointer, '"x-markdown": true describes a string of Markdown: add "type": "string"');
      return { type: "JSON", directives: " @markdownSubset" };
    }
    if (schema.discriminator !== undefined)
      return { type: this.unionType(schema, pointer, derivedName), directives: "" };
    if (link !== undefined) return this.linkType(link, pointer);

    if (typeof type !== "string") {
      this.fail(
        pointer,
        `cannot tell the GraphQL type: give one "type" (string, integer, number, boolean, object or array)${type ? `, not ${JSON.stringify(type)}` : ""}`,
      );
    }
    if (type in SCALARS) return { type: SCALARS[type]!, directives: "" };
    if (type === "array") {
      const items = this.items(schema, pointer);
      const inner = this.fieldType(items.schema, items.pointer, derivedName);
      return { type: `[${inner.type}!]`, directives: inner.directives };
    }
    if (type === "object") {
      const known = this.named.get(schema);
      if (known) return { type: known, directives: "" };
      const definition = /^#\/(?:definitions|\$defs)\/([^/]+)$/.exec(pointer)?.[1];
      const name =
        schema["x-graphql-type"] ??
        (definition
          ? `${this.nodeName()}${upperFirst(definition.replace(/[-_]+(.)/g, (_, c: string) => c.toUpperCase()))}`
          : derivedName);
      return { type: this.objectType(schema, pointer, name), directives: "" };
    }
    return this.fail(pointer, `the type "${type}" has no GraphQL counterpart here`);
  }

  /** The union of a typed list's kinds (typed-lists.ts), each kind an object type. */
  private unionType(schema: JsonSchema, pointer: string, derivedName: string): string {
    const fail = (message: string) => this.fail(pointer, message);
    const list = typedList(this.source.schema, schema, fail) ?? fail("a typed list needs its kinds");
    const name = schema["x-graphql-type"] ?? derivedName;
    if (!NAME.test(name)) this.fail(pointer, `"${name}" is not a valid GraphQL type name`);
    const members: Record<string, string> = {};
    for (const kind of list.kinds) {
      members[kind.value] = this.fieldType({ $ref: kind.pointer }, pointer, `${name}${upperFirst(kind.value)}`).type;
    }
    const header = `union ${name} = ${Object.values(members).join(" | ")}`;
    const earlier = this.types.get(name);
    if (earlier && earlier.header !== header)
      this.fail(pointer, `the GraphQL type ${name} is also declared at ${earlier.origin} with other members`);
    this.types.set(name, { name, header, fields: [], origin: this.where(pointer), union: true });
    this.unions.set(name, { name, key: list.key, members });
    return name;
  }

  private linkType(link: { to?: unknown; by?: unknown }, pointer: string): { type: string; directives: string } {
    const target = typeof link.to === "string" ? this.nodes.get(link.to) : undefined;
    if (!target) {
      this.fail(
        pointer,
        `"x-link" needs "to": one of the content files (${[...this.nodes.keys()].join(", ")}), found ${JSON.stringify(link.to)}`,
      );
    }
    const by = link.by;
    if (typeof by !== "string" || !target.schema.properties?.[by] || !target.schema.required?.includes(by)) {
      this.fail(pointer, `"x-link" needs "by": a required field of ${link.to as string} (found ${JSON.stringify(by)})`);
    }
    return { type: target.name, directives: ` @link(by: ${JSON.stringify(by)})` };
  }

  private nodeName(): string {
    return this.nodes.get(this.source.file)!.name;
  }
}

function upperFirst(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
