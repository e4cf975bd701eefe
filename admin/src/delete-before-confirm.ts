/**
 * The editor's Delete button (Decap's Editor.handleDeleteEntry, routed here by
 * admin/scripts/delete-guard-fix.ts): an entry another entry names is refused before Decap's confirm,
 * saying who names it, so that the editor is not asked to confirm what would not happen.
 */
import { store } from "decap-cms-core/dist/esm/redux";
import { currentBackend } from "decap-cms-core/dist/esm/backend";
import { addNotification } from "decap-cms-core/dist/esm/actions/notifications";
import { refusalToDelete, singularOf } from "./delete-guard";

interface EditorProps {
  collection: { get(key: string): unknown; toJS(): unknown };
  slug?: string;
  newEntry?: boolean;
}

const refuse = (message: string) => store.dispatch(addNotification({ message, type: "error", dismissAfter: 20_000 }));

/** Decap's own handling (its confirm, then the deletion) once nothing names the entry. */
export function guardDelete(props: EditorProps, proceed: () => void): void {
  const { collection, slug, newEntry } = props;
  // A new entry is not saved: Decap only leaves the page.
  if (newEntry || !slug) return proceed();
  const state = store.getState() as Parameters<typeof refusalToDelete>[1] & { config: unknown };
  refusalToDelete(currentBackend(state.config), state, collection, slug).then(
    (refusal) => (refusal ? refuse(refusal) : proceed()),
    (error: unknown) => {
      console.warn("The studio could not read the entries naming this one:", error);
      refuse(`This ${singularOf(collection)} is not deleted: the studio could not check what names it. Try again.`);
    },
  );
}
