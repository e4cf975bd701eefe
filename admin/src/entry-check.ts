/**
 * Before an entry is saved, the studio runs on it the content check's rules that the site's data
 * decides, in the check's own code and words (bundled from src/node/content/): the file's YAML and text
 * fields, its schema, the Markdown subset of its texts, its image paths against the media the studio
 * lists (a name differing only in capitals gets the check's "did you mean"), and its references to
 * other entries and pages of the site (the slug of an added page, a link to a page that does not
 * exist, a service the menu names). What the check would refuse is refused here, and no save is sent
 * (studio.tsx's preSave listener throws the words). What needs the pictures' bytes (a picture the site
 * cannot read, its width) stays the check's.
 */
import Ajv, { type ValidateFunction } from "ajv";
import { fileProblems, inReadingOrder, dedupe, parseFile, type FileAccess } from "../../src/node/content/file-rules";
import type { LoadedFile } from "../../src/node/content/locate";
import type { ContentProblem } from "../../src/node/content/problems";
import { checkReferences } from "../../src/node/content/references";
import { AJV_OPTIONS } from "../../src/node/content/schema-options";
import type { BundledSource } from "./content-sources";

/** A content file as the studio has it: its path from the project's root (data/…) and its text. */
export interface EntryText {
  rel: string;
  source: BundledSource;
  text: string;
}

const validators = new Map<BundledSource["json"], ValidateFunction>();
const validatorOf = (source: BundledSource) => {
  let validate = validators.get(source.json);
  if (!validate) {
    validate = new Ajv(AJV_OPTIONS).compile(source.json);
    validators.set(source.json, validate);
  }
  return validate;
};

/** The media as the studio lists them (paths from the project's root: data/services/images/a.jpg), as a disk. */
export function mediaAccess(paths: readonly string[]): FileAccess {
  const files = new Set(paths.map((p) => `/${p.replace(/^\/+/, "")}`));
  return {
    readdir: (dir) => {
      const prefix = dir.endsWith("/") ? dir : `${dir}/`;
      const names = [...files].filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length).split("/")[0]!);
      return names.length ? [...new Set(names)] : undefined;
    },
    isFile: (file) => files.has(file),
  };
}

/**
 * The check's problems of `entry` (the text about to be saved), among `others` (every other content
 * file, as the studio read them), with the media `access` lists; none: it may be saved.
 */
export function entryProblems(entry: EntryText, others: readonly EntryText[], access: FileAccess): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const abs = (rel: string) => `/${rel}`;
  const own = parseFile(abs(entry.rel), entry.rel, entry.source, entry.text, problems);
  if (own) problems.push(...fileProblems(own, validatorOf(entry.source), entry.source.json, access));
  const loaded: LoadedFile[] = [];
  const unreadable: string[] = [];
  for (const other of others) {
    if (other.rel === entry.rel) continue;
    const file = parseFile(abs(other.rel), other.rel, other.source, other.text, []);
    if (file) loaded.push(file);
    else unreadable.push(other.rel.replace(/^data\//, ""));
  }
  if (own) loaded.push(own);
  else unreadable.push(entry.rel.replace(/^data\//, ""));
  const schemaOf = (source: { file: string }) =>
    [entry.source, ...others.map((o) => o.source)].find((s) => s.file === source.file)?.json;
  problems.push(...checkReferences(loaded, unreadable, schemaOf));
  return inReadingOrder(dedupe(problems.filter((p) => p.file === entry.rel)));
}

/** "sections[2].body" (the check's field, counted from 1) as the path into the data: ["sections", 1, "body"]. */
export function fieldPath(field: string): Array<string | number> {
  return [...field.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) - 1 : m[1]!));
}
