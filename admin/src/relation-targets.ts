/**
 * The entries a relation field may name (the services, for the Services menu), read through Decap's
 * backend and shared by every field and preview naming them: one reading per collection, again when
 * the window regains focus (a file deleted meanwhile, here or elsewhere, counts).
 */
import { useEffect, useSyncExternalStore } from "react";
import { store } from "decap-cms-core/dist/esm/redux";
import { currentBackend } from "decap-cms-core/dist/esm/backend";
import { missingEntry } from "./entry-users";

/** A relation field's configuration, as Decap gives it (Immutable). */
export interface RelationField {
  get(key: string): unknown;
}

/** What was read: each entry's value (its slug) and the name people know it by (its menu label). */
interface Targets {
  names: Map<string, string>;
  /** The note for a value naming no entry. */
  missing(value: string): string;
}

interface Imm {
  get(key: string): unknown;
}
interface DecapState {
  config: unknown;
  collections: Imm;
}

const known = new Map<string, Targets>();
const reading = new Set<string>();
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

const specOf = (field: RelationField) => {
  const display = field.get("display_fields") as { first?(): unknown } | undefined;
  const valueField = String(field.get("value_field"));
  return { collection: String(field.get("collection")), valueField, display: String(display?.first?.() ?? valueField) };
};
const keyOf = (spec: ReturnType<typeof specOf>) => `${spec.collection}|${spec.valueField}|${spec.display}`;

function read(spec: ReturnType<typeof specOf>): void {
  const key = keyOf(spec);
  const state = store.getState() as DecapState;
  const collection = state.collections.get(spec.collection) as Imm | undefined;
  if (reading.has(key) || !collection) return;
  reading.add(key);
  const singular = String(collection.get("label_singular") ?? "entry").toLowerCase();
  // The value is the file's name when it is the collection's key: the note can name the missing file.
  const byKey = collection.get("identifier_field") === spec.valueField && collection.get("folder");
  const file = (value: string) =>
    byKey ? `${String(collection.get("folder"))}/${value}.${String(collection.get("extension") ?? "yaml")}` : undefined;
  currentBackend(state.config)
    .listAllEntries(collection)
    .then(
      (entries) => {
        const names = new Map<string, string>();
        for (const { data } of entries) {
          const row = (data ?? {}) as Record<string, unknown>;
          if (row[spec.valueField] !== undefined)
            names.set(String(row[spec.valueField]), String(row[spec.display] ?? row[spec.valueField]));
        }
        known.set(key, { names, missing: (value) => missingEntry(singular, value, file(value)) });
        notify();
      },
      (error: unknown) => console.warn("The studio could not read the entries a field names:", error),
    )
    .finally(() => reading.delete(key));
}

if (typeof window !== "undefined")
  window.addEventListener("focus", () => {
    for (const key of known.keys()) {
      const [collection, valueField, display] = key.split("|") as [string, string, string];
      read({ collection, valueField, display });
    }
  });

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The note for a value naming no entry, once the entries are read; undefined otherwise. */
export function missingNote(field: RelationField, value: unknown): string | undefined {
  const targets = known.get(keyOf(specOf(field)));
  return targets && typeof value === "string" && value !== "" && !targets.names.has(value)
    ? targets.missing(value)
    : undefined;
}

/** For a field or its preview: the entries it may name, read once it shows (undefined until then). */
export function useTargets(field: RelationField): Targets | undefined {
  const spec = specOf(field);
  const key = keyOf(spec);
  useEffect(() => read(spec), [key]); // eslint-disable-line react-hooks/exhaustive-deps
  return useSyncExternalStore(subscribe, () => known.get(key));
}
