/**
 * A refused save or publish is seen where the editor is looking: the refusals are under their fields,
 * possibly thousands of pixels down the form (an added page's Slug), so when Decap's validation before
 * a save leaves errors, a notice at the top names the first refused field and its words, and that
 * field gets the focus, scrolled into view. Only after a save asked for (a click on Publish now,
 * Save …): Decap also validates a field as it changes, and the editor typing there is not moved.
 */
import { store } from "decap-cms-core/dist/esm/redux";
import { addNotification } from "decap-cms-core/dist/esm/actions/notifications";

interface State {
  entryDraft?: { get(key: "fieldsErrors"): { size?: number } | undefined };
}

/** The first refused field on the page, in the form's order: its label and its first error's words. */
export function firstRefusedField(root: ParentNode = document) {
  for (const list of root.querySelectorAll<HTMLElement>('ul[class*="ControlErrorsList"]')) {
    const words = list.querySelector("li")?.textContent?.trim();
    const control = list.closest<HTMLElement>("[aria-label$=' field']");
    if (!words || !control) continue;
    const label = control.querySelector("label")?.textContent?.trim() ?? "A field";
    return { control, label: label.replace(/ \(optional\)$/, ""), words };
  }
  return undefined;
}

function showRefusal(): void {
  const refused = firstRefusedField();
  if (!refused) return;
  store.dispatch(
    addNotification({
      message: `Not saved: ${refused.label}: ${refused.words}`,
      type: "error",
      dismissAfter: 10_000,
    }),
  );
  const target =
    refused.control.querySelector<HTMLElement>("input, textarea, select, [contenteditable=true], button") ??
    refused.control;
  target.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
}

/** The editor's ways to save or publish (the Publish menu's, the Save button). */
const SAVING =
  /^(Publish now|Publish and create new|Publish and duplicate|Save|Save and create new|Save and duplicate)$/;

export function watchRefusals(): void {
  // Decap also validates a field as it changes: only a save asked for moves the editor.
  document.addEventListener(
    "click",
    (event) => {
      const clicked = (event.target as Element | null)?.closest("button, [role=button], [role=menuitem], div, span");
      const words = clicked?.textContent?.trim() ?? "";
      if (!SAVING.test(words)) return;
      const started = (store.getState() as State).entryDraft?.get("fieldsErrors")?.size ?? 0;
      let tries = 0;
      // Decap validates, then draws the errors under their fields: looked for until they are there.
      const look = () => {
        tries += 1;
        const errors = (store.getState() as State).entryDraft?.get("fieldsErrors")?.size ?? 0;
        if (errors > 0 && firstRefusedField()) showRefusal();
        else if (tries < 15 && started === 0) setTimeout(look, 100);
      };
      setTimeout(look, 50);
    },
    true,
  );
}
