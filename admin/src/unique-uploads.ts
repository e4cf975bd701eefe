/**
 * Every upload, from any image field or the Media page, goes through here before Decap's own
 * persistMedia, and every deletion before its deleteMedia (admin/scripts/unique-uploads-fix.ts routes
 * them so as the studio is bundled). Decap kept the editor's file name and, when a file of that name
 * existed, asked with window.confirm whether to replace it: with one folder for all services, OK
 * replaced another page's picture. Here the file is renamed first (upload-name.ts) to a name no file
 * in the folder has and no entry names, so Decap never finds a file to replace: an upload never
 * replaces or deletes anything. When the name the editor might expect was taken, a note says so
 * beside the field (image-field.tsx). */
import { useSyncExternalStore } from "react";
import { addDraftEntryMediaFile } from "decap-cms-core/dist/esm/actions/entries";
import { addNotification } from "decap-cms-core/dist/esm/actions/notifications";
import { currentBackend } from "decap-cms-core/dist/esm/backend";
import { store } from "decap-cms-core/dist/esm/redux";
import { selectMediaFiles } from "decap-cms-core/dist/esm/reducers/mediaLibrary";
import { clearLibraryNotice, showInLibrary } from "./library-notice";
import { imageExtension, keptBothNote, sameUpload, uploadName, uploadPattern } from "./upload-name";

/** Decap's Immutable state, as far as it is read here. */
export interface Imm {
  get(key: string): any; // eslint-disable-line @typescript-eslint/no-explicit-any
  getIn(path: string[]): any; // eslint-disable-line @typescript-eslint/no-explicit-any
  isEmpty(): boolean;
}
/** Decap's store state: plain at the top, Immutable below (its config stays plain). */
export interface State {
  entryDraft: Imm;
  collections: Imm;
  config: unknown;
}
export type Thunk = (dispatch: (action: unknown) => unknown, getState: () => State) => unknown;
export type Persist = (file: File, opts: { field?: Imm }) => Thunk;

/** What the studio named an upload from: upload-rename.ts renames it when the entry's key came later. */
export interface Made {
  pattern: string;
  entry: string;
  ending: string;
  field?: Imm;
}
export const made = new Map<string, Made>();
/** Decap's own persistMedia, for upload-rename.ts (set by the first upload, before any rename). */
export let decapPersist: Persist | undefined;

export function persistUnique(persist: Persist, file: File, opts: { field?: Imm } = {}): Thunk {
  decapPersist = persist;
  return async (dispatch, getState) => {
    const state = getState();
    const draft = state.entryDraft.get("entry") as Imm | undefined;
    const editing = Boolean(draft && !draft.isEmpty());
    const collection = editing ? (state.collections.get(draft!.get("collection")) as Imm) : undefined;
    // The same picture again (two cards showing one): this entry names that one file twice. Put first
    // among the entry's uploads, it is the one the media library selects, as after an upload.
    const drafts = (selectMediaFiles(state, opts.field) as Array<{ name: string; draft?: boolean }>).filter(
      (f) => f.draft && uploaded.has(f.name.toLowerCase()),
    );
    const same = editing
      ? await sameUpload(
          file,
          drafts.map((f) => ({ name: f.name, file: uploaded.get(f.name.toLowerCase())! })),
        )
      : undefined;
    if (same) {
      const { key: _key, ...media } = drafts.find((f) => f.name === same) as { key?: unknown; name: string };
      return dispatch(addDraftEntryMediaFile(media));
    }
    const { taken, users } = await takenNames(state, collection, draft, opts.field);

    const ending = imageExtension(new Uint8Array(await file.slice(0, 16).arrayBuffer()), file.name);
    // An entry's picture is named by its field's pattern (the existing files'); on the Media page, after the file.
    const field = String(opts.field?.get("name") ?? "");
    const [entry, pattern] = editing
      ? [entryName(collection!, draft!), uploadPattern(opts.field?.get("upload_name"), field)]
      : ["", file.name.replace(/\.[^.]*$/, "")];
    const saved = uploadName(pattern, entry, ending, taken);
    // The names the editor might expect: the file's own, and the entry's usual one.
    const expected = [file.name.toLowerCase(), uploadName(pattern, entry, ending, new Set())];
    const clash = expected.find((name) => taken.has(name));
    if (clash) setNote(saved, keptBothNote(clash, users.get(clash) ?? [], saved));
    made.set(saved, { pattern, entry, ending, field: opts.field });
    return dispatch(persist(asUpload(file, saved, ending), opts));
  };
}

/**
 * The file under its new name; its type follows the ending, as the file really is (a JPEG named .png said image/png).
 */
export function asUpload(file: File, name: string, ending: string): File {
  const known = ["jpg", "png", "webp", "avif"].includes(ending);
  const type = known ? `image/${ending === "jpg" ? "jpeg" : ending}` : file.type;
  const renamed = new File([file], name, { type, lastModified: file.lastModified });
  uploaded.set(name, renamed);
  return renamed;
}

/**
 * The names an upload may not take: the folder's files and, while an entry is edited, every name its
 * entries give (file name -> who shows it, in `users`).
 */
export async function takenNames(state: State, collection: Imm | undefined, draft: Imm | undefined, field?: Imm) {
  const users = new Map<string, string[]>();
  if (collection && draft) await namedByEntries(state, collection, draft, users);
  const inFolder = (selectMediaFiles(state, field) as Array<{ name: string }>).map((f) => f.name.toLowerCase());
  return { taken: new Set([...inFolder, ...users.keys()]), users };
}

type Remove = (file: MediaFile, opts: object) => Thunk;
interface MediaFile {
  name: string;
  /** Where it is in the repository: data/site/images/logo.png. */
  path?: string;
  draft?: boolean;
  key?: string;
}

/**
 * Why a picture is kept, in plain words ("… is not deleted: Project Management shows it. …"); undefined
 * when it may go: an upload not yet published (a draft) or a file no entry names.
 */
async function keptBecause(state: State, file: MediaFile): Promise<string | undefined> {
  if (file.draft) return undefined;
  const draft = state.entryDraft.get("entry") as Imm | undefined;
  const users = new Map<string, string[]>();
  if (draft && !draft.isEmpty())
    await namedByEntries(state, state.collections.get(draft.get("collection")) as Imm, draft, users);
  else if (!(await namedBesideFolder(state, file.path ?? "", users)))
    return `${file.name} is not deleted: the studio could not check which pages show it. Try again.`;
  const who = users.get(file.name.toLowerCase());
  return who?.length
    ? `${file.name} is not deleted: ${who.join(", ")} ${who.length > 1 ? "show" : "shows"} it. Choose another picture there first.`
    : undefined;
}

/** Shown in the library's window (library-notice.ts); Decap's notices only if it is not open. */
const keep = (dispatch: (action: unknown) => unknown, message: string) => {
  if (!showInLibrary(message)) dispatch(addNotification({ message, type: "warning", dismissAfter: 10_000 }));
};

/**
 * Decap's Delete in the media library deletes the file at once, whoever shows it: with one folder for
 * all services, another service's banner; on the Media page, the site's logo. A saved picture that an
 * entry names is kept, and a message says who shows it; an upload not yet published (a draft) or a
 * file no entry names is deleted.
 */
export function deleteUnlessNamed(remove: Remove, file: MediaFile, opts: object = {}): Thunk {
  return async (dispatch, getState) => {
    clearLibraryNotice();
    const kept = await keptBecause(getState(), file);
    return kept ? keep(dispatch, kept) : dispatch(remove(file, opts));
  };
}

/**
 * The library's Delete button (Decap's MediaLibrary.handleDelete, routed here by
 * admin/scripts/delete-guard-fix.ts): a picture a page shows is refused before Decap asks "Are you sure
 * you want to delete selected media?", so that the editor is not asked to confirm what would not
 * happen; the library says it is checking meanwhile. Otherwise Decap's own handling: its confirm, then
 * its deleteMedia, which comes to deleteUnlessNamed above.
 */
export function askUnlessNamed(files: readonly MediaFile[], selected: { key?: string }, proceed: () => void): void {
  const file = files.find((f) => f.key !== undefined && f.key === selected.key);
  if (!file || file.draft) return proceed();
  showInLibrary(`Checking which pages show ${file.name}…`, "status");
  keptBecause(store.getState() as State, file).then(
    (kept) => {
      if (kept) return keep(store.dispatch, kept);
      clearLibraryNotice();
      proceed();
    },
    (error: unknown) => {
      console.warn("The studio could not check which pages show the picture:", error);
      keep(store.dispatch, `${file.name} is not deleted: the studio could not check which pages show it. Try again.`);
    },
  );
}

/**
 * On the Media page no entry is open: the saved entries whose images/ folder holds the file (for
 * data/site/images, the site's settings). False when they could not be read.
 */
async function namedBesideFolder(state: State, filePath: string, users: Map<string, string[]>): Promise<boolean> {
  const dir = filePath.replace(/^\/+/, "").split("/").slice(0, -2).join("/");
  const backend = currentBackend(state.config);
  try {
    for (const collection of (state.collections as unknown as { toList(): { toArray(): Imm[] } }).toList().toArray()) {
      const label = labelOf(collection);
      const files = (collection.get("files")?.toArray() ?? []) as Imm[];
      for (const file of files.filter((f) => String(f.get("file")).replace(/\/[^/]*$/, "") === dir)) {
        const entry = await backend.getEntry(state, collection, file.get("name"));
        addPictures(users, entry.data, label(entry.data ?? {}, file.get("name")));
      }
      if (collection.get("folder") === dir)
        for (const entry of await backend.listAllEntries(collection))
          addPictures(users, entry.data, label(entry.data as Record<string, unknown>, entry.slug));
    }
    return true;
  } catch (error) {
    console.warn("The studio could not read the entries naming pictures:", error);
    return false;
  }
}

function addPictures(users: Map<string, string[]>, data: unknown, who: string): void {
  pictures(data).forEach((name) => users.set(name, [...new Set([...(users.get(name) ?? []), who])]));
}

/** The entry's name for its files: a new service's slug as typed so far, a page's file name. */
export function entryName(collection: Imm, draft: Imm): string {
  const key = collection.get("identifier_field") as string | undefined;
  const typed = key ? draft.getIn(["data", key]) : undefined;
  return String(draft.get("slug") || typed || collection.get("label_singular") || collection.get("name"));
}

/**
 * Which entries name which pictures (file name -> entry labels): this entry as edited, and, for a
 * folder of entries sharing one images/ folder (services), every other one as saved. A listing that
 * fails leaves the folder's own file names, which still keep every existing file.
 */
async function namedByEntries(state: State, collection: Imm, draft: Imm, users: Map<string, string[]>) {
  const label = labelOf(collection);
  const add = (data: unknown, who: string) => addPictures(users, data, who);
  add(draft.get("data")?.toJS(), label(draft.get("data")?.toJS() ?? {}, draft.get("slug")));
  if (!collection.get("folder")) return;
  try {
    const entries = await currentBackend(state.config).listAllEntries(collection);
    for (const entry of entries)
      if (entry.slug !== draft.get("slug")) add(entry.data, label(entry.data as Record<string, unknown>, entry.slug));
  } catch (error) {
    console.warn("The studio could not list the entries naming pictures:", error);
  }
}

/** An entry as people know it: a service by its menu label (the collection's summary), a page by its title. */
function labelOf(collection: Imm) {
  const summary = /\{\{fields\.(\w+)/.exec(String(collection.get("summary") ?? ""))?.[1];
  const files = collection.get("files") as { find(f: (file: Imm) => boolean): Imm | undefined } | undefined;
  return (data: Record<string, unknown>, slug: string): string =>
    String((summary && data[summary]) || files?.find((f) => f.get("name") === slug)?.get("label") || slug);
}

/** The file names of images/ that a YAML entry's values name (images/x.jpg, ./images/x.jpg). */
function pictures(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === "string") {
    const name = /^(?:\.\/)?images\/([^/]+)$/.exec(value)?.[1];
    if (name) found.add(name.toLowerCase());
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) pictures(item, found);
  }
  return found;
}

/** This session's uploads by the name they were given: until published, the backend has no such file. */
export const uploaded = new Map<string, File>();

/** The file a field's value (images/<name>) names, if it was uploaded in this session. */
export function uploadedFile(value: unknown): File | undefined {
  return typeof value === "string" ? uploaded.get(value.split("/").pop()!.toLowerCase()) : undefined;
}

/** Notes for the fields: saved file name -> what happened; image-field.tsx shows the one for its value. */
export const notes = new Map<string, string>();
const listeners = new Set<() => void>();

export function setNote(saved: string, note: string) {
  notes.set(saved, note);
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The note for the picture a field holds (images/<name>), if its upload was renamed. */
export function useUploadNote(value: unknown): string | undefined {
  const name = typeof value === "string" ? value.split("/").pop()!.toLowerCase() : "";
  return useSyncExternalStore(subscribe, () => notes.get(name));
}
