import type { JsonSchema } from "./json-schema";

/**
 * Typed lists: a list whose entries are of several kinds (the sections of an added page), each kind
 * told by a field of its own, written first (`type: text`). The one form of `oneOf` the content model
 * accepts (validate.ts, graphql-types.ts, cms-config.ts, the checks that walk a schema):
 *
 *   "items": { "type": "object", "discriminator": { "propertyName": "type" }, "required": ["type"],
 *              "oneOf": [{ "$ref": "#/$defs/text" }, ...] }
 *
 * each `$ref` naming an object schema of the same file whose `type` property is a `const`. With Ajv's
 * `discriminator` option, only the entry's own kind is checked: a mistake gives its own message, not
 * one for every kind.
 */
export interface TypedList {
  /** The field that tells the kind: "type". */
  key: string;
  /** Each kind by its value ("picture-with-text"), in the schema's order. */
  kinds: Array<{ value: string; schema: JsonSchema; pointer: string }>;
}

/** The typed list `schema` describes, if it is one; `fail` is called on any other use of oneOf. */
export function typedList(
  root: JsonSchema,
  schema: JsonSchema,
  fail: (message: string) => never = (message) => {
    throw new Error(message);
  },
): TypedList | undefined {
  if (schema.oneOf === undefined && schema.discriminator === undefined) return undefined;
  const key = (schema.discriminator as { propertyName?: unknown } | undefined)?.propertyName;
  const branches = schema.oneOf;
  const form =
    'a "discriminator" goes with "oneOf", and oneOf is only for a list of several kinds of entries: "discriminator": { "propertyName": "type" } and "oneOf" of "$ref"s to definitions whose "type" is a "const"';
  if (typeof key !== "string" || !Array.isArray(branches) || branches.length === 0) return fail(form);
  const kinds = (branches as JsonSchema[]).map((branch) => {
    const pointer = branch.$ref;
    const target = typeof pointer === "string" && Object.keys(branch).length === 1 ? at(root, pointer) : undefined;
    const value = target?.properties?.[key]?.const;
    if (!target || typeof value !== "string" || !target.required?.includes(key)) return fail(form);
    return { value, schema: target, pointer: pointer! };
  });
  return { key, kinds };
}

/** The schema of the kind `value` is (an entry of a typed list), if it is a known one. */
export function kindOf(root: JsonSchema, schema: JsonSchema, value: unknown): JsonSchema | undefined {
  const list = typedListOrNone(root, schema);
  if (!list || !value || typeof value !== "object") return undefined;
  const tag = (value as Record<string, unknown>)[list.key];
  return list.kinds.find((kind) => kind.value === tag)?.schema;
}

/** typedList, for the checks that only follow a schema: another oneOf is no typed list to them. */
export function typedListOrNone(root: JsonSchema, schema: JsonSchema): TypedList | undefined {
  try {
    return typedList(root, schema);
  } catch {
    return undefined;
  }
}

/** The schema at a `#/...` pointer of the same file. */
function at(root: JsonSchema, pointer: string): JsonSchema | undefined {
  if (!pointer.startsWith("#/")) return undefined;
  let target: unknown = root;
  for (const raw of pointer.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    target = target && typeof target === "object" ? (target as Record<string, unknown>)[key] : undefined;
  }
  return target && typeof target === "object" ? (target as JsonSchema) : undefined;
}

/** An entry of a typed list on the way to a value: its list's field, its place in the list (from 0) and its kind. */
export interface TypedEntry {
  list: string;
  index: number;
  kind: string;
  /** Where the entry is: the path to it. */
  at: Array<string | number>;
}

/** The innermost entry of a typed list that the value at `path` is in (or is), following the schema. */
export function typedEntryAt(
  root: JsonSchema,
  data: unknown,
  path: ReadonlyArray<string | number>,
): TypedEntry | undefined {
  let schema: JsonSchema | undefined = root;
  let value = data;
  let found: TypedEntry | undefined;
  for (let i = 0; i < path.length && schema; i += 1) {
    const seg = path[i]!;
    schema = follow(root, schema);
    if (typeof seg === "number") {
      const items: JsonSchema | undefined = Array.isArray(schema.items) ? undefined : schema.items;
      value = Array.isArray(value) ? value[seg] : undefined;
      const list = items && typedListOrNone(root, follow(root, items));
      const kind = list && kindOf(root, follow(root, items!), value);
      if (list && kind) {
        const name = path[i - 1];
        found = {
          list: typeof name === "string" ? name : "",
          index: seg,
          kind: String(kind.properties![list.key]!.const),
          at: path.slice(0, i + 1),
        };
      }
      schema = kind ?? items;
    } else {
      value = value && typeof value === "object" ? (value as Record<string, unknown>)[seg] : undefined;
      schema = schema.properties?.[seg];
    }
  }
  return found;
}

function follow(root: JsonSchema, schema: JsonSchema, depth = 0): JsonSchema {
  if (typeof schema.$ref !== "string" || depth > 8) return schema;
  const target = at(root, schema.$ref);
  return target ? follow(root, target, depth + 1) : schema;
}
