import type { ErrorObject } from "ajv";
import type { JsonSchema } from "./graphql-types";
import { locate, type LoadedFile, type Segment } from "./locate";
import type { ContentProblem } from "./problems";
import { similar } from "./similar";
import { typedEntryAt, typedListOrNone } from "./typed-lists";

/**
 * The content check's words for the entries of a typed list (a page's sections, typed-lists.ts): a
 * kind that is missing or unknown, named with the known kinds, and a field missing from an entry,
 * named with the entry's place and kind.
 */

/** "sections" -> "section": how an editor calls one entry of the list. */
const entryWord = (list: string) => list.replace(/s$/, "") || "entry";

/** An entry without its kind: Ajv also reports the kind's field as missing; one message says it. */
export function withoutTagRequired(errors: ErrorObject[]): ErrorObject[] {
  const untagged = new Set(
    errors
      .filter((e) => e.keyword === "discriminator")
      .map((e) => `${e.instancePath}\0${String((e.params as { tag?: unknown }).tag)}`),
  );
  return errors.filter(
    (e) =>
      !(
        e.keyword === "required" &&
        untagged.has(`${e.instancePath}\0${String((e.params as { missingProperty?: unknown }).missingProperty)}`)
      ),
  );
}

/** An entry whose kind is missing, not text, or not one of the list's kinds. */
export function typedEntryProblem(
  file: LoadedFile,
  root: JsonSchema,
  error: ErrorObject,
  at: Segment[],
): ContentProblem {
  const list = typedListOrNone(root, error.parentSchema as JsonSchema);
  const params = error.params as { tag?: unknown; tagValue?: unknown };
  const key = typeof params.tag === "string" ? params.tag : (list?.key ?? "type");
  const kinds = list?.kinds.map((k) => k.value) ?? [];
  const name = at[at.length - 2];
  const word = entryWord(typeof name === "string" ? name : "");
  const known = `the types of ${word}: ${kinds.join(", ")}`;
  const value = params.tagValue;
  if (value === undefined) {
    const entry = error.data && typeof error.data === "object" ? Object.keys(error.data) : [];
    const typed = entry.find((field) => similar(field, [key]) === key);
    const advice = typed
      ? `"${typed}" looks like it, misspelt: rename ${typed} to ${key}`
      : `each ${word} starts with its ${key}, e.g. ${key}: ${kinds[0] ?? "text"}`;
    return locate(file, [...at, key], `is missing: ${advice} (${known})`, at);
  }
  const guess = typeof value === "string" ? similar(value, kinds) : undefined;
  return locate(
    file,
    [...at, key],
    `${JSON.stringify(value)} is not a known type of ${word}: ${guess ? `did you mean "${guess}"? ` : "write one of "}${guess ? `(${known})` : kinds.join(", ")}`,
  );
}

/** A field missing from an entry of a typed list: the message names the entry by its place and kind. */
export function withEntryKind(
  file: LoadedFile,
  root: JsonSchema,
  error: ErrorObject,
  at: Segment[],
  problem: ContentProblem,
): ContentProblem {
  if (error.keyword !== "required" && error.keyword !== "dependencies") return problem;
  const entry = typedEntryAt(root, file.data, at);
  if (!entry) return problem;
  const word = entryWord(entry.list);
  const place = `${word} ${entry.index + 1}`;
  const message =
    entry.at.length === at.length
      ? `is missing: ${place} is a "${entry.kind}" ${word}, which needs it`
      : `${problem.message}, in ${place} (a "${entry.kind}" ${word})`;
  return { ...problem, message };
}
