/**
 * Who names an entry: the relation fields of the studio's configuration (the dropdown naming services,
 * a gallery naming approvals: src/node/content/cms-config.ts maps the schemas' x-link to them) and the
 * entries whose values there name it. Deleting such an entry would leave a name the content check
 * refuses; guard-delete.ts refuses the deletion with deleteRefusal's words, and missing-relation.tsx
 * says when a name already points at nothing. Plain functions, tested without a browser.
 */

/** A field of Decap's configuration, as far as it is read here (plain, as cms-config.ts writes it). */
export interface FieldLike {
  name: string;
  label?: string;
  widget?: string;
  field?: FieldLike;
  fields?: readonly FieldLike[];
  collection?: string;
  value_field?: string;
}

/** A place naming entries of a collection: its path ("*": each item of a list) and its labels. */
export interface RelationPlace {
  path: string[];
  labels: string[];
  collection: string;
  valueField: string;
}

/** The relation fields among these fields and the fields inside them. */
export function relationPlaces(
  fields: readonly FieldLike[],
  at: string[] = [],
  labels: string[] = [],
): RelationPlace[] {
  return fields.flatMap((field) => {
    const path = [...at, field.name];
    // A list's item has no label of its own for people: the list's names it.
    const named = field.name === "*" ? labels : [...labels, field.label ?? field.name];
    if (field.widget === "relation" && field.collection && field.value_field)
      return [{ path, labels: named, collection: field.collection, valueField: field.value_field }];
    // A list of one field: each item is that field's value.
    if (field.field) return relationPlaces([{ ...field.field, name: "*" }], path, named);
    if (field.fields) return relationPlaces(field.fields, field.widget === "list" ? [...path, "*"] : path, named);
    return [];
  });
}

/** The values at a path of the data ("*": every item of a list). */
export function valuesAt(data: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [data];
  const [key, ...rest] = path;
  if (key === "*") return Array.isArray(data) ? data.flatMap((item) => valuesAt(item, rest)) : [];
  return data && typeof data === "object" && !Array.isArray(data)
    ? valuesAt((data as Record<string, unknown>)[key!], rest)
    : [];
}

/** An entry that may name others: where the studio shows it, its file, its fields and its data as saved. */
export interface Holder {
  /** "Site and menu → Navigation", "Services → Regulatory Approvals" */
  where: string;
  file: string;
  fields: readonly FieldLike[];
  data: unknown;
}

export interface Usage {
  /** "Site and menu → Navigation → Services menu" */
  place: string;
  file: string;
}

/** The places that name the entry of `collection` whose data is `target` (its key: slug, key). */
export function usagesOf(collection: string, target: Record<string, unknown>, holders: readonly Holder[]): Usage[] {
  return holders.flatMap((holder) =>
    relationPlaces(holder.fields)
      .filter((p) => p.collection === collection && target[p.valueField] !== undefined)
      .filter((p) => valuesAt(holder.data, p.path).includes(target[p.valueField]))
      .map((p) => ({ place: [holder.where, ...p.labels].join(" → "), file: holder.file })),
  );
}

/** Why the entry is not deleted, and what to do: "… → Services menu lists this service (file): …". */
export function deleteRefusal(singular: string, usages: readonly Usage[]): string | undefined {
  if (usages.length === 0) return undefined;
  const places = usages.map((u) => `${u.place} lists this ${singular} (${u.file})`);
  return `${places.join("; ")}: remove it there first, then delete it.`;
}

/** A relation's value naming no entry: the name, its file when the value is the file's name, and what to do. */
export function missingEntry(singular: string, value: string, file: string | undefined): string {
  const gone = file ? `: there is no ${file}` : "";
  return `"${value}" is not a ${singular} any more${gone}. Remove this entry (×), or choose another ${singular}.`;
}
