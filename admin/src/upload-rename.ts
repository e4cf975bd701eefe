/**
 * A picture uploaded before its entry had a key (a new service's banner, chosen before the slug was
 * typed) was named after the collection: service-banner.jpg. When the entry is saved, Decap's save
 * (persistEntry, and persistUnpublishedEntry under review; admin/scripts/unique-uploads-fix.ts routes
 * both through refusal-notice.ts to here as the studio is bundled) comes here first: each such upload, not yet written,
 * is named
 * again after the key (<slug>-banner.jpg), by the same rules (never a name in use), and the values
 * naming it follow. Nothing is written before Decap's save writes the entry and its pictures together.
 */
import { fromJS, Map as ImmutableMap } from "immutable";
import { changeDraftField } from "decap-cms-core/dist/esm/actions/entries";
import { renamedUpload, withNames } from "./upload-name";
import {
  asUpload,
  decapPersist,
  entryName,
  made,
  notes,
  setNote,
  takenNames,
  uploaded,
  type Imm,
  type Thunk,
} from "./unique-uploads";

export function renameUploadsFirst(save: (...args: never[]) => Thunk, ...args: never[]): Thunk {
  return async (dispatch, getState) => {
    try {
      await renameUploads(dispatch, getState);
    } catch (error) {
      // The pictures keep the names they had: still names of their own, only not the entry's.
      console.warn("The studio could not rename the entry's new pictures:", error);
    }
    return dispatch(save(...args));
  };
}

async function renameUploads(...[dispatch, getState]: Parameters<Thunk>): Promise<void> {
  const draft = getState().entryDraft.get("entry") as Imm | undefined;
  if (!draft || draft.isEmpty() || !decapPersist) return;
  const collection = getState().collections.get(draft.get("collection")) as Imm;
  const entry = entryName(collection, draft);
  const files = (draft.get("mediaFiles")?.toArray() ?? []) as Imm[];
  const renames = new Map<string, string>();
  for (const file of files.filter((f) => f.get("draft"))) {
    const name = String(file.get("name")).toLowerCase();
    const upload = made.get(name);
    const bytes = uploaded.get(name);
    if (!upload || !bytes) continue;
    const { taken } = await takenNames(getState(), collection, getState().entryDraft.get("entry"), upload.field);
    taken.delete(name);
    const to = renamedUpload(upload, entry, taken);
    if (!to) continue;
    // Decap's own upload: the same bytes (the same id) replace the draft's file under its old name.
    await dispatch(decapPersist(asUpload(bytes, to, upload.ending), { field: upload.field }));
    made.set(to, { ...upload, entry });
    const note = notes.get(name);
    if (note) setNote(to, note.replace(`saved as ${name}.`, `saved as ${to}.`));
    renames.set(name, to);
  }
  if (!renames.size) return;
  const data = (getState().entryDraft.getIn(["entry", "data"]) as { toJS(): Record<string, unknown> }).toJS();
  for (const [key, value] of Object.entries(data)) {
    const renamed = withNames(value, renames);
    if (renamed !== value)
      dispatch(changeDraftField({ field: ImmutableMap({ name: key }), value: fromJS(renamed), entries: [] }));
  }
}
