/**
 * What the studio saves: an optional field left empty is left out of the file, never written as an
 * empty text, list or object, which the schemas refuse (an empty `gallery: []`, a section's `heading: ""`
 * after its text was deleted). Decap writes such values once a field has been touched; its preSave
 * event (studio.tsx) passes the entry's data through this first. Required fields stay: Decap refuses
 * to save those empty.
 */
export function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmpty).filter((item) => !isEmpty(item));
  if (value && typeof value === "object") {
    const kept = Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => [key, withoutEmpty(item)] as const)
      .filter(([, item]) => !isEmpty(item));
    return Object.fromEntries(kept);
  }
  return typeof value === "string" ? (value.trim() === "" ? "" : value) : value;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value as object).length === 0;
  return false;
}
