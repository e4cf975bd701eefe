/**
 * Deleting an entry that another entry names (a service in the Services menu, an approval in a
 * gallery) is refused, naming who names it: otherwise the content check refuses the site until someone
 * edits that other entry. Decap has no event before a deletion, so admin/scripts/delete-guard-fix.ts
 * routes two of its functions here as the studio is bundled: the editor's Delete button, which asks
 * before Decap's confirm (delete-before-confirm.ts), and its backend's deleteEntry, which every
 * deletion of a published entry goes through (Unpublish, under review, too).
 * Only the collections with a field naming this one are read, through Decap's own backend.
 */
import { deleteRefusal, relationPlaces, usagesOf, type FieldLike, type Holder } from "./entry-users";

/** Decap's Immutable maps, as far as they are read here. */
interface Imm {
  get(key: string): unknown;
  toJS(): unknown;
}
interface DecapState {
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

const names = (fields: readonly FieldLike[] | undefined, target: string) =>
  relationPlaces(fields ?? []).some((p) => p.collection === target);

/** An entry of a folder as people know it: a service by its menu label (the collection's summary). */
function entryLabel(collection: PlainCollection, slug: string, data: unknown): string {
  const field = /\{\{fields\.(\w+)/.exec(collection.summary ?? "")?.[1];
  const label = field ? (data as Record<string, unknown> | undefined)?.[field] : undefined;
  return typeof label === "string" && label.trim() ? label : slug;
}

/** The entries that may name entries of `target`: where the studio shows each, its file and data. */
async function holders(reader: EntryReader, state: DecapState, target: string, slug: string): Promise<Holder[]> {
  const found: Holder[] = [];
  for (const collection of state.collections.toList().toArray()) {
    const plain = collection.toJS() as PlainCollection;
    for (const file of plain.files ?? []) {
      if (!names(file.fields, target)) continue;
      const { data } = await reader.getEntry(state, collection, file.name);
      found.push({ where: `${plain.label} → ${file.label}`, file: file.file, fields: file.fields, data });
    }
    if (!plain.folder || !names(plain.fields, target)) continue;
    for (const entry of await reader.listAllEntries(collection)) {
      if (plain.name === target && entry.slug === slug) continue; // the entry being deleted
      found.push({
        where: `${plain.label} → ${entryLabel(plain, entry.slug, entry.data)}`,
        file: entry.path ?? `${plain.folder}/${entry.slug}.${plain.extension ?? "yaml"}`,
        fields: plain.fields ?? [],
        data: entry.data,
      });
    }
  }
  return found;
}

/** "service": how the collection names one entry. */
export const singularOf = (collection: Imm) =>
  String(collection.get("label_singular") ?? collection.get("label") ?? "entry").toLowerCase();

/** Why this entry may not be deleted, in plain words; undefined when nothing names it. */
export async function refusalToDelete(
  reader: EntryReader,
  state: DecapState,
  collection: Imm,
  slug: string,
): Promise<string | undefined> {
  const target = String(collection.get("name"));
  const found = await holders(reader, state, target, slug);
  if (found.length === 0) return undefined;
  const { data } = await reader.getEntry(state, collection, slug);
  return deleteRefusal(singularOf(collection), usagesOf(target, data ?? {}, found));
}

/** Decap shows a failed deletion as "Failed to delete entry: <the error>": the message alone, no "Error:". */
class Refused extends Error {
  override toString() {
    return this.message;
  }
}

/** Decap's Backend.deleteEntry, first: throws the refusal instead of deleting a named entry. */
export async function refuseNamedDelete(
  reader: EntryReader,
  state: DecapState,
  collection: Imm,
  slug: string,
): Promise<void> {
  const refusal = await refusalToDelete(reader, state, collection, slug);
  if (refusal) throw new Refused(refusal);
}
