/**
 * What the studio refuses to save because the content check would refuse it (or, worse, because Decap
 * would save it wrongly): the messages, in the check's plain words. The widgets that ask are in
 * refusing-widgets.tsx; these are plain functions so that they can be tested without a browser.
 */
import { slugRefusal } from "../../src/node/content/site-paths";

/**
 * A required text of spaces only: Decap counts it as filled in, the save then leaves it out of the
 * file (prune.ts) and the check says the field is missing.
 */
export function blankText(label: string, value: unknown, required: boolean): string | undefined {
  if (!required || typeof value !== "string" || value === "" || value.trim() !== "") return undefined;
  return `${label} cannot be only spaces: write the text, or it is missing from the page.`;
}

/**
 * An added page's slug that is the address of another page of the site (a fixed page's, /admin ...):
 * Decap would save it, and the content check would then refuse the file, in these words.
 */
export function pageAddressTaken(value: unknown): string | undefined {
  const refusal = typeof value === "string" ? slugRefusal(value) : undefined;
  return refusal && `${refusal.charAt(0).toUpperCase()}${refusal.slice(1)}. Choose another slug.`;
}

/** Another entry of the collection, as the studio read it: its file's name without .yaml, and its data. */
export interface OtherEntry {
  slug: string;
  data: Record<string, unknown>;
}

export interface UniqueField {
  name: string;
  label: string;
  /** The field naming an entry for people (menuLabel). */
  labelField: string;
  /** The key: its value is the entry's file name. */
  fileName: boolean;
  /** "service" */
  singular: string;
}

/** The entry being edited: its file's name (none while new). */
export interface Self {
  slug?: string;
}

const nameOf = (entry: OtherEntry, labelField: string) => {
  const label = entry.data[labelField];
  return typeof label === "string" && label.trim() !== "" ? label : `${entry.slug}.yaml`;
};

/**
 * A key or an order another entry has. The key is also the file's name, so:
 * - a new entry's key must name no file: Decap would otherwise write study-design-1.yaml beside it,
 *   silently, and the check's advice for that file could only be to take another slug;
 * - an existing entry's key must stay its file's name: the studio cannot rename a file, and a key that
 *   differs from it is a problem of the check.
 */
export function takenValue(
  field: UniqueField,
  value: unknown,
  self: Self,
  others: readonly OtherEntry[],
): string | undefined {
  const rest = others.filter((o) => o.slug !== self.slug);
  if (field.fileName) {
    if (typeof value !== "string" || value === "") return undefined;
    if (self.slug !== undefined && value !== self.slug)
      return `${field.label} must stay "${self.slug}": it is the name of this ${field.singular}'s file (${self.slug}.yaml), which the studio cannot rename.`;
    const owner = rest.find((o) => o.slug === value || o.data[field.name] === value);
    return owner
      ? `${field.label} "${value}" is already used by ${nameOf(owner, field.labelField)}; choose another.`
      : undefined;
  }
  if (typeof value !== "number" || !Number.isFinite(value)) return undefined;
  const owner = rest.find((o) => o.data[field.name] === value);
  return owner
    ? `${field.label} ${value} is already used by ${nameOf(owner, field.labelField)}; choose another number.`
    : undefined;
}
