/**
 * A refused save or publish is seen where the editor is looking, however it was asked for: a click
 * anywhere on Publish now (its words, its icon, the rest of its row), Enter or Space on it, Save under
 * review, "Publish and create new". (Decap has no keyboard shortcut to save.) Decap's saves (persistEntry;
 * persistUnpublishedEntry under review) come here first (admin/scripts/unique-uploads-fix.ts routes
 * them so as the studio is bundled), after Decap has validated the form and before anything is sent:
 *
 * - a field Decap's validation refused (the studio's refusals among them: refusing-widgets.tsx): its
 *   words are under the field, possibly thousands of pixels away (an added page's Slug), so a notice at
 *   the top names the first refused field in the form's order and its words, and the cursor goes to
 *   that field, scrolled into view (a folded list entry holding it is unfolded);
 * - the content check's refusal (save-check.ts, in Decap's preSave): Decap's own notice of it, "Failed
 *   to persist entry: the content check would refuse it, …", is left out; the notice says each problem
 *   as "<field as the form shows it>: <the check's words>", and the cursor goes to the first one's field.
 *
 * The notice (studio-notice.ts) is an alert, shown at once and kept until the next save, OK, or another
 * screen. The refused save still ends in a rejection, so that Decap's editor neither drops the entry's
 * local backup nor moves on to a new entry; the form that started the save catches it (decap-fixes.ts),
 * where Decap left it uncaught and the page reported an error ("Uncaught (in promise)", or "Object").
 */
import { NOTIFICATION_SEND } from "decap-cms-core/dist/esm/actions/notifications";
import { focusByPath } from "./field-focus";
import { CheckRefusal, type RefusedProblem } from "./save-check";
import { clearNotice, showAnswer } from "./studio-notice";
import { renameUploadsFirst } from "./upload-rename";
import type { State, Thunk } from "./unique-uploads";

/** The first refused field on the page, in the form's order: its label and its first error's words. */
export function firstRefusedField(root: ParentNode = document) {
  for (const list of root.querySelectorAll<HTMLElement>('ul[class*="ControlErrorsList"]')) {
    const words = list.querySelector("li")?.textContent?.trim();
    const control = list.closest<HTMLElement>("[aria-label$=' field']");
    if (!words || !control) continue;
    return { control, label: labelOf(control), words };
  }
  return undefined;
}

/** A field's label as the form shows it, without Decap's " (optional)". */
const labelOf = (control: HTMLElement) =>
  (control.querySelector("label")?.textContent?.trim() ?? "A field").replace(/ \(optional\)$/, "");

/** Where a field's text is typed. */
const TYPED = "input:not([type=hidden]):not([type=file]), textarea, [contenteditable=true]";

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
const visible = (element: Element) => element.getClientRects().length > 0;

/**
 * Unfolds the list entries holding `element` (a field of a folded entry is in the page, not shown),
 * from the innermost out: the fold button on the bar of the entry whose fields are hidden.
 */
async function unfold(element: HTMLElement): Promise<void> {
  for (let pass = 0; pass < 5 && !visible(element); pass += 1) {
    let hidden: HTMLElement | null = element;
    while (hidden && getComputedStyle(hidden).display !== "none") hidden = hidden.parentElement;
    let bar = hidden?.previousElementSibling;
    while (bar && !bar.matches("[class*=ListItemTopBar]")) bar = bar.previousElementSibling;
    const fold = bar?.querySelector<HTMLButtonElement>("button[aria-expanded=false]");
    if (!hidden || !fold) return;
    const folded = hidden;
    fold.click();
    await waitFor(() => getComputedStyle(folded).display !== "none" || undefined, 30);
  }
}

/** Puts the cursor in the field's control (where its text is typed, else its first button), mid-view. */
function focusIn(control: HTMLElement): HTMLElement {
  const first = (selector: string) => [...control.querySelectorAll<HTMLElement>(selector)].find(visible);
  const target = first(TYPED) ?? first("button, select, [tabindex='0']") ?? control;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: "center" });
  return target;
}

/** Waits (a few frames at most) until `find` finds something. */
async function waitFor<T>(find: () => T | undefined, frames = 60): Promise<T | undefined> {
  for (let frame = 0; frame < frames; frame += 1) {
    const found = find();
    if (found) return found;
    await nextFrame();
  }
  return find();
}

/** Decap's validation refused a field: its words at the top, the cursor in it. */
async function sayFieldRefusal(state: State): Promise<void> {
  // Decap validated the form before this save, and draws the words under their fields next.
  const refused = await waitFor(() => firstRefusedField());
  if (!refused) {
    const errors = (
      state.entryDraft.get("fieldsErrors") as { toJS(): Record<string, Array<{ message?: string }>> }
    ).toJS();
    const words = Object.values(errors).flat()[0]?.message ?? "a field is refused";
    showAnswer([`Not saved: ${words}`]);
    return;
  }
  // The field's name first, unless its words begin with it ("Menu label cannot be only spaces …").
  const named = refused.words.toLowerCase().startsWith(refused.label.toLowerCase());
  showAnswer([`Not saved: ${named ? "" : `${refused.label}: `}${refused.words}`]);
  await unfold(refused.control);
  focusIn(refused.control);
}

const inForm = (element: Element | null): element is HTMLElement =>
  element instanceof HTMLElement && element !== document.body && Boolean(element.closest("[aria-label$=' field']"));

/** The field of a problem on the page, by its labels (the last one's control, shown), if Decap's way found none. */
function controlByLabels(problem: RefusedProblem): HTMLElement | undefined {
  const label = problem.place.split(" → ").at(-1);
  return [...document.querySelectorAll<HTMLElement>("[aria-label$=' field']")].find(
    (control) => visible(control) && labelOf(control) === label,
  );
}

/** The content check refused the entry: each problem at the top, the cursor in the first one's field. */
async function sayCheckRefusal(refusal: CheckRefusal): Promise<void> {
  showAnswer(
    refusal.problems.map(
      (p, index) => `${index === 0 ? "Not saved: " : ""}${p.place ? `${p.place}: ` : ""}${p.message}`,
    ),
  );
  const first = refusal.problems.find((p) => p.path);
  if (!first?.path) return;
  const before = document.activeElement;
  if (focusByPath(first.path)) {
    const focused = await waitFor(() => {
      const active = document.activeElement;
      return active !== before && inForm(active) ? active : undefined;
    }, 20);
    if (focused) {
      focused.scrollIntoView({ block: "center" });
      return;
    }
  }
  const control = controlByLabels(first);
  if (control) focusIn(control);
}

/** Decap's words for a failed save ("Failed to persist entry: …") when the failure is the check's refusal. */
function refusalIn(action: unknown): CheckRefusal | undefined {
  const sent = action as { type?: string; payload?: { message?: { details?: unknown } } } | null;
  const details = sent?.type === NOTIFICATION_SEND ? sent.payload?.message?.details : undefined;
  return details instanceof CheckRefusal ? details : undefined;
}

/** A save that did not happen, said already; the form that started it catches it (decap-fixes.ts). */
export class NotSaved extends Error {
  constructor() {
    super("Not saved: the notice at the top says why.");
    this.name = "NotSaved";
  }
}

/** Decap's save (persistEntry, persistUnpublishedEntry), routed here: the refusals said, as above. */
export function saveOrSayWhy(save: (...args: never[]) => Thunk, ...args: never[]): Thunk {
  return async (dispatch, getState) => {
    clearNotice();
    const errors = getState().entryDraft.get("fieldsErrors") as { isEmpty(): boolean } | undefined;
    if (errors && !errors.isEmpty()) {
      await sayFieldRefusal(getState());
      throw new NotSaved();
    }
    // Decap's save, its own thunks too, with Decap's notice of a refusal by the check left out.
    let refusal: CheckRefusal | undefined;
    const quiet = (action: unknown): unknown => {
      if (typeof action === "function") return (action as Thunk)(quiet, getState);
      const refused = refusalIn(action);
      if (!refused) return dispatch(action);
      refusal = refused;
      return action;
    };
    try {
      return await renameUploadsFirst(save, ...args)(quiet, getState);
    } catch (failure) {
      if (!refusal) throw failure;
      await sayCheckRefusal(refusal);
      throw new NotSaved();
    }
  };
}
