/**
 * A saved answer into a reply: its placeholders filled ({name}: the visitor's name, {signature}: the
 * person's own), put where the cursor was, or after what is there when the box was never entered. The
 * result is plain text the person edits before sending: nothing is filled at the server.
 */
export const PLACEHOLDERS = ["{name}", "{signature}"] as const;

export function fillAnswer(text: string, values: { name: string; signature: string }): string {
  return text.replace(/\{(name|signature)\}/g, (_, key: "name" | "signature") => values[key]);
}

/**
 * `insert` into `draft` between start and end (the box's selection, replaced), or at the end (after a
 * blank line, when the draft has text) with no selection; the cursor goes after what was inserted.
 */
export function insertInto(
  draft: string,
  insert: string,
  selection?: { start: number; end: number },
): { text: string; cursor: number } {
  if (!selection) {
    const joint = draft === "" || draft.endsWith("\n\n") ? "" : draft.endsWith("\n") ? "\n" : "\n\n";
    const text = draft + joint + insert;
    return { text, cursor: text.length };
  }
  const start = Math.min(selection.start, draft.length);
  const end = Math.max(start, Math.min(selection.end, draft.length));
  return { text: draft.slice(0, start) + insert + draft.slice(end), cursor: start + insert.length };
}
