/**
 * Decap's form on screen (its EditorControlPane), kept here as the editor draws it: Decap hands it out
 * to no one, and admin/scripts/decap-fixes.ts has its EditorInterface set it. Its focus("sections.0.body")
 * is Decap's own way to a field (used when a field is clicked in the preview): it unfolds the list
 * entries on the way and puts the cursor in the field. refusal-notice.ts takes the editor to a field
 * the content check refuses with it.
 */
interface ControlPane {
  focus(path: string): void;
}

let pane: ControlPane | null = null;

/** Called by Decap's EditorInterface with its form, and with null when the form goes. */
export function setControlPane(control: ControlPane | null): void {
  pane = control;
}

/** Decap's way to the field at `path` (["sections", 0, "body"]); false when no form is on screen. */
export function focusByPath(path: ReadonlyArray<string | number>): boolean {
  if (!pane) return false;
  pane.focus(path.join("."));
  return true;
}
