/**
 * Deleting an entry that another entry refers to (a service in the Services menu or linked from a text,
 * an added page in the menu, an approval in a gallery, whatever a later schema marks) is refused, naming
 * each place that refers to it: otherwise the content check refuses the site until someone edits those
 * places. The references are the content check's own (src/node/content/reference-index.ts, found from the
 * schemas' marks), over the entries as Decap's backend reads them. Decap has no event before a deletion,
 * so admin/scripts/delete-guard-fix.ts routes two of its functions here as the studio is bundled: the
 * editor's Delete button, which asks before Decap's confirm (delete-before-confirm.ts), and its backend's
 * deleteEntry, which every deletion of a published entry goes through (Unpublish, under review, too).
 */
import {
  mayRefer,
  referenceIndex,
  referencesTo,
  type IndexedFile,
  type Reference,
} from "../../src/node/content/reference-index";
import { deleteRefusal, type FieldLike, type Usage } from "./entry-users";
import { contentSources, sourceOfFile, type BundledSource } from "./content-sources";

/** Decap's Immutable maps, as far as they are read here. */
interface Imm {
  get(key: string): unknown;
  toJS(): unknown;
}
export interface DecapState {
  collections: { toList(): { toArray(): Imm[] } };
}
export interface EntryReader {
  getEntry(state: unknown, collection: unknown, slug: string): Promise<{ data?: Record<string, unknown> }>;
  listAllEntries(collection: unknown): Promise<Array<{ slug: string; path?: string; data: unknown }>>;
}
interface PlainCollection {
  name: string;
  label: string;
  label_singular?: string;
  folder?: string;
  extension?: string;
  summary?: string;
  fields?: FieldLike[];
  files?: Array<{ name: string; label: string; file: string; fields: FieldLike[] }>;
}

/** An entry of a folder as people know it: a service by its menu label (the collection's summary). */
function entryLabel(collection: PlainCollection, slug: string, data: unknown): string {
  const field = /\{\{fields\.(\w+)/.exec(collection.summary ?? "")?.[1];
  const label = field ? (data as Record<string, unknown> | undefined)?.[field] : undefined;
  return typeof label === "string" && label.trim() ? label : slug;
}

/** An entry read for the index: where the studio shows it, its fields, and the file as the index reads it. */
export interface Read extends IndexedFile {
  source: BundledSource;
  where: string;
  fields: readonly FieldLike[];
}

/**
 * The entries of the collections `wanted` (by default, those whose schema has a place that may refer to
 * another: a link, a relation, a text), through Decap's backend.
 */
export async function readEntries(
  reader: EntryReader,
  state: DecapState,
  sources: readonly BundledSource[],
  wanted: (source: BundledSource) => boolean = (source) => mayRefer(source.json),
): Promise<Read[]> {
  const found: Read[] = [];
  for (const collection of state.collections.toList().toArray()) {
    const plain = collection.toJS() as PlainCollection;
    for (const file of plain.files ?? []) {
      const source = sourceOfFile(sources, file.file);
      if (!source || !wanted(source)) continue;
      const { data } = await reader.getEntry(state, collection, file.name);
      found.push({ where: `${plain.label} → ${file.label}`, rel: file.file, source, fields: file.fields, data });
    }
    if (!plain.folder) continue;
    const rel = (slug: string) => `${plain.folder}/${slug}.${plain.extension ?? "yaml"}`;
    const source = sourceOfFile(sources, rel("x"));
    if (!source || !wanted(source)) continue;
    for (const entry of await reader.listAllEntries(collection)) {
      found.push({
        where: `${plain.label} → ${entryLabel(plain, entry.slug, entry.data)}`,
        rel: entry.path ?? rel(entry.slug),
        source,
        fields: plain.fields ?? [],
        data: entry.data,
      });
    }
  }
  return found;
}

interface FieldWithTypes extends FieldLike {
  types?: readonly FieldLike[];
  typeKey?: string;
}

/**
 * A place of an entry in the studio's words: its fields' labels down to the value, an entry of a list
 * of several fields by its number and its first words ("Main → item 8 "Careers" → To"); an entry of a
 * list of single values (the Services menu) by the list alone, as the studio shows them all open.
 */
export function placeLabels(fields: readonly FieldLike[], data: unknown, at: readonly (string | number)[]): string[] {
  const labels: string[] = [];
  let here: readonly FieldLike[] = fields;
  let value: unknown = data;
  let list: FieldWithTypes | undefined;
  for (const seg of at) {
    if (typeof seg === "number") {
      const item = Array.isArray(value) ? value[seg] : undefined;
      value = item;
      if (!list || list.field) break;
      const row = item && typeof item === "object" ? (item as Record<string, unknown>) : {};
      here = list.types
        ? (list.types.find((t) => t.name === row[list!.typeKey ?? "type"])?.fields ?? [])
        : (list.fields ?? []);
      const kind = list.types?.find((t) => t.name === row[list!.typeKey ?? "type"])?.label;
      const title = here.find((f) => f.widget === "string" || f.widget === "text" || f.widget === "markdown");
      const words = title && typeof row[title.name] === "string" ? String(row[title.name]).trim().split("\n")[0]! : "";
      const shown = words.length > 40 ? `${words.slice(0, 39)}…` : words;
      labels.push(`item ${seg + 1}${kind ? ` (${kind})` : ""}${shown ? ` "${shown}"` : ""}`);
      list = undefined;
      continue;
    }
    const field = here.find((f) => f.name === seg) as FieldWithTypes | undefined;
    if (!field) break;
    labels.push(field.label ?? field.name);
    value = value && typeof value === "object" ? (value as Record<string, unknown>)[seg] : undefined;
    if (field.widget === "list") list = field;
    else here = field.fields ?? [];
  }
  return labels;
}

const usageOf = (ref: Reference, read: Read): Usage => ({
  place: [read.where, ...placeLabels(read.fields, read.data, ref.at)].join(" → "),
  file: read.rel,
  links: ref.kind === "address",
});

/** "service": how the collection names one entry. */
export const singularOf = (collection: Imm) =>
  String(collection.get("label_singular") ?? collection.get("label") ?? "entry").toLowerCase();

/** Why this entry may not be deleted, in plain words; undefined when nothing refers to it. */
export async function refusalToDelete(
  reader: EntryReader,
  state: DecapState,
  collection: Imm,
  slug: string,
  sources: readonly BundledSource[] = contentSources(),
): Promise<string | undefined> {
  const plain = collection.toJS() as PlainCollection;
  const file =
    plain.files?.find((f) => f.name === slug)?.file ?? `${plain.folder}/${slug}.${plain.extension ?? "yaml"}`;
  const source = sourceOfFile(sources, file);
  if (!source) return undefined;
  const reads = (await readEntries(reader, state, sources)).filter((r) => r.rel !== file);
  const index = referenceIndex(reads, (s) => sources.find((b) => b.file === s.file)?.json);
  const { data } = await reader.getEntry(state, collection, slug);
  const byFile = new Map(reads.map((r) => [r.rel, r]));
  const usages = referencesTo(index, source, data ?? {}).map((ref) => usageOf(ref, byFile.get(ref.file)!));
  return deleteRefusal(singularOf(collection), usages);
}

/** Decap shows a failed deletion as "Failed to delete entry: <the error>": the message alone, no "Error:". */
class Refused extends Error {
  override toString() {
    return this.message;
  }
}

/** Decap's Backend.deleteEntry, first: throws the refusal instead of deleting an entry referred to. */
export async function refuseNamedDelete(
  reader: EntryReader,
  state: DecapState,
  collection: Imm,
  slug: string,
): Promise<void> {
  const refusal = await refusalToDelete(reader, state, collection, slug);
  if (refusal) throw new Refused(refusal);
}
