/**
 * Decap's preSave event (studio.tsx), after the empty values are pruned: the entry's text as the studio
 * will write it, checked with the content check's rules (entry-check.ts) against the other entries and
 * the media as the studio reads them now. A problem throws a CheckRefusal, so that Decap sends no save;
 * refusal-notice.ts, around Decap's save, shows its problems in plain words, each named by its field as
 * the form shows it, in place of Decap's "Failed to persist entry: …", and takes the editor to the first.
 */
import path from "node:path";
import { store } from "decap-cms-core/dist/esm/redux";
import { currentBackend } from "decap-cms-core/dist/esm/backend";
import { contentSources, sourceOfFile } from "./content-sources";
import { placeLabels, readEntries, type DecapState, type EntryReader } from "./delete-guard";
import { entryProblems, fieldPath, mediaAccess } from "./entry-check";
import type { FieldLike } from "./entry-users";
import { yamlLines } from "./yaml/format";
import { mayRefer } from "../../src/node/content/reference-index";
import type { ContentProblem } from "../../src/node/content/problems";

interface Imm {
  get(key: string): unknown;
  getIn(keys: unknown[]): unknown;
  toJS(): unknown;
}

interface Backend extends EntryReader {
  implementation: { getMedia(folder: string): Promise<Array<{ path: string }>> };
}

const IMAGE = /^(\.{1,2}\/)?[\w .-]+(\/[\w .-]+)*\.(jpe?g|png|webp|avif|gif|tiff?)$/i;

/** The folders the entry's image paths name, relative to its file. */
function imageFolders(data: unknown, fileDir: string, into = new Set<string>()): Set<string> {
  if (typeof data === "string" && IMAGE.test(data)) into.add(path.posix.join(fileDir, path.posix.dirname(data)));
  else if (Array.isArray(data)) data.forEach((item) => imageFolders(item, fileDir, into));
  else if (data && typeof data === "object") Object.values(data).forEach((item) => imageFolders(item, fileDir, into));
  return into;
}

/** A problem of a refused entry: where the form shows it ("Sections → item 1 (Text) → Body"), the check's words. */
export interface RefusedProblem {
  /** The field's labels down to it; "" for the file as a whole. */
  place: string;
  message: string;
  /** The path into the data (["sections", 0, "body"]), for Decap's way to the field. */
  path?: Array<string | number>;
}

/** The preSave's refusal: its problems, and the same in one sentence as the error's message. */
export class CheckRefusal extends Error {
  constructor(readonly problems: readonly RefusedProblem[]) {
    super(
      `the content check would refuse it, so nothing was saved. ${problems
        .map((p) => `${p.place ? `${p.place}: ` : ""}${p.message}`)
        .join(". ")}.`.replace(/\.\.$/, "."),
    );
    this.name = "CheckRefusal";
  }

  override toString() {
    return this.message;
  }
}

/** The check's problems as the form shows them: each with the place of its field. */
export function refusedProblems(
  problems: readonly ContentProblem[],
  fields: readonly FieldLike[],
  data: unknown,
): RefusedProblem[] {
  return problems.map((p) => {
    const path = p.field ? fieldPath(p.field) : undefined;
    return { place: path ? placeLabels(fields, data, path).join(" → ") : "", message: p.message, path };
  });
}

export async function refuseWhatTheCheckRefuses(entry: Imm): Promise<void> {
  const state = store.getState() as DecapState & { config: unknown; collections: { get(name: unknown): Imm } };
  const collection = state.collections.get(entry.get("collection"));
  const plain = collection.toJS() as {
    folder?: string;
    identifier_field?: string;
    fields?: FieldLike[];
    files?: Array<{ name: string; file: string; fields: FieldLike[] }>;
  };
  const data = (entry.get("data") as Imm).toJS() as Record<string, unknown>;
  const file = plain.files?.find((f) => f.name === entry.get("slug"));
  const rel =
    file?.file ??
    (entry.get("newRecord") === true || !entry.get("path")
      ? `${plain.folder}/${String(data[plain.identifier_field ?? "slug"])}.yaml`
      : String(entry.get("path")));
  const sources = contentSources();
  const source = sourceOfFile(sources, rel);
  if (!source) return;
  const backend = currentBackend(state.config) as unknown as Backend;
  const others = await readEntries(backend, state, sources, (s) => s.file.includes("*") || mayRefer(s.json));
  const media: string[] = [];
  for (const folder of imageFolders(data, path.posix.dirname(rel))) {
    try {
      media.push(...(await backend.implementation.getMedia(folder)).map((m) => m.path));
    } catch {
      // No such folder: its pictures are not found, as the check would say.
    }
  }
  // Pictures uploaded in this entry and not saved yet travel with the save.
  const drafts = (entry.get("mediaFiles") as { toJS(): Array<{ path?: string }> } | undefined)?.toJS() ?? [];
  media.push(...drafts.map((m) => m.path ?? "").filter(Boolean));
  const text = yamlLines.toFile(data);
  const problems = entryProblems(
    { rel, source, text },
    others.map((o) => ({ rel: o.rel, source: o.source, text: JSON.stringify(o.data ?? {}) })),
    mediaAccess(media),
  );
  if (problems.length) throw new CheckRefusal(refusedProblems(problems, file?.fields ?? plain.fields ?? [], data));
}
