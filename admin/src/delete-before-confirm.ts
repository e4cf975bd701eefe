/**
 * The editor's Delete button (Decap's Editor.handleDeleteEntry, routed here by
 * admin/scripts/delete-guard-fix.ts): an entry another entry names is refused before Decap's confirm,
 * saying who names it, so that the editor is not asked to confirm what would not happen. Reading the
 * entries that may name it takes a moment (half a second to a second, more on a git host), during
 * which the button seemed to do nothing: the notice at the top says the studio is checking from the
 * moment it is pressed, then gives the answer, or goes for Decap's confirm.
 */
import { store } from "decap-cms-core/dist/esm/redux";
import { currentBackend } from "decap-cms-core/dist/esm/backend";
import { refusalToDelete, singularOf } from "./delete-guard";
import { clearNotice, showAnswer, showStatus } from "./studio-notice";

interface EditorProps {
  collection: { get(key: string): unknown; toJS(): unknown };
  slug?: string;
  newEntry?: boolean;
}

/** Decap's own handling (its confirm, then the deletion) once nothing names the entry. */
export function guardDelete(props: EditorProps, proceed: () => void): void {
  const { collection, slug, newEntry } = props;
  // A new entry is not saved: Decap only leaves the page.
  if (newEntry || !slug) return proceed();
  const singular = singularOf(collection);
  showStatus(`Checking what names this ${singular} before deleting it…`);
  const state = store.getState() as Parameters<typeof refusalToDelete>[1] & { config: unknown };
  // An answer for a screen the editor has left meanwhile is not given (nor Decap's confirm asked).
  const screen = window.location.hash;
  refusalToDelete(currentBackend(state.config), state, collection, slug).then(
    (refusal) => {
      if (window.location.hash !== screen) return;
      if (refusal) return void showAnswer([refusal]);
      clearNotice();
      proceed();
    },
    (error: unknown) => {
      console.warn("The studio could not read the entries naming this one:", error);
      if (window.location.hash === screen)
        showAnswer([`This ${singular} is not deleted: the studio could not check what names it. Try again.`]);
    },
  );
}
