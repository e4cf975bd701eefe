/**
 * The words for who refers to an entry: delete-guard.ts finds the places (the content check's reference
 * index) and refuses the deletion with deleteRefusal's words; missing-relation.tsx says when a name
 * already points at nothing. Plain functions, tested without a browser.
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

export interface Usage {
  /** "Site and menu → Navigation → Services menu" */
  place: string;
  file: string;
  /** A link to the entry's page (a menu link, a text's), rather than a list naming the entry. */
  links?: boolean;
}

/**
 * Why the entry is not deleted, and what to do: "… → Services menu lists this service (file): …",
 * "… → Main → item 7 "Careers" → To links to this page (file): …".
 */
export function deleteRefusal(singular: string, usages: readonly Usage[]): string | undefined {
  if (usages.length === 0) return undefined;
  const places = usages.map((u) => `${u.place} ${u.links ? "links to" : "lists"} this ${singular} (${u.file})`);
  return `${places.join("; ")}: remove it there first, then delete it.`;
}

/** A relation's value naming no entry: the name, its file when the value is the file's name, and what to do. */
export function missingEntry(singular: string, value: string, file: string | undefined): string {
  const gone = file ? `: there is no ${file}` : "";
  return `"${value}" is not a ${singular} any more${gone}. Remove this entry (×), or choose another ${singular}.`;
}
