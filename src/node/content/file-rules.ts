import path from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { isScalar } from "yaml";
import type { ContentSource } from "./content-files";
import type { JsonSchema } from "./json-schema";
import { locate, type LoadedFile, type Segment } from "./locate";
import type { ContentProblem } from "./problems";
import { similar } from "./similar";
import { quotedValueAdvice } from "./curly-quotes";
import { oddValueProblem } from "./odd-character-values";
import { findImageIn } from "./image-find";
import { imagePathAdvice } from "./image-path-rule";
import { dashAdvice, startsWithDashWithoutSpace } from "./list-dash";
import { textProblems } from "./text-problems";
import { parseYaml } from "./yaml-problems";
import { typedEntryProblem, withEntryKind, withoutTagRequired } from "./typed-list-problems";

/**
 * The content check's rules for one file that parsed, decided from its text and the pictures beside
 * it: its YAML, its text fields, its schema, its image paths. Apart from validate.ts, which reads the
 * disk, so that the studio runs the very same code on an entry before it saves it (admin/src/
 * entry-check.ts, bundled): `FileAccess` is the disk for the check, the media the studio lists for the
 * studio.
 */

/** What the rules read of the folders beside a file (paths as `path` makes them from `LoadedFile.abs`). */
export interface FileAccess {
  /** The names in a folder; undefined when there is no such folder. */
  readdir(dir: string): string[] | undefined;
  /** Whether a file is there, spelt exactly so. */
  isFile(file: string): boolean;
  /** Whether the picture is one the site can read; left out where its bytes are not at hand (the studio). */
  readable?(file: string): boolean;
}

// Relative to the YAML file, with or without "./": the studio (Decap CMS) writes images/x.jpg.
const IMAGE_PATH = /^(\.{1,2}\/)?[\w.-]+(\/[\w.-]+)*\.(jpe?g|png|webp|avif|gif|tiff?)$/i;

/** Parses a file's text; its YAML problems (in plain words) go to `problems` and give no file. */
export function parseFile(
  abs: string,
  rel: string,
  source: ContentSource,
  text: string,
  problems: ContentProblem[],
): LoadedFile | undefined {
  const parsed = parseYaml(text);
  if (parsed.problems.length > 0 || parsed.data === undefined) {
    problems.push(...parsed.problems.map((p) => ({ file: rel, ...p })));
    return undefined;
  }
  return { rel, abs, source, text, doc: parsed.doc, lines: parsed.lines, data: parsed.data };
}

/** The problems of a file that parsed, found in the file alone (not its references to other files). */
export function fileProblems(
  file: LoadedFile,
  validate: ValidateFunction,
  schema: JsonSchema,
  access: FileAccess,
): ContentProblem[] {
  const typed = typedTextProblems(file, schema);
  // A text that YAML read as a number is also "not a string" to the schema: its own message says more.
  const typedFields = new Set(typed.map((p) => p.field));
  const refused = schemaProblems(file, validate, schema, access).filter((p) => !typedFields.has(p.field));
  // A picture's name the schema refused already has its advice (the name to write): one report per slip.
  const refusedFields = new Set(refused.map((p) => p.field));
  return [...typed, ...refused, ...imageProblems(file, access).filter((p) => !refusedFields.has(p.field))];
}

/** Text fields that would be published differently from what was typed (a number, a comment, a tab). */
function typedTextProblems(file: LoadedFile, schema: JsonSchema): ContentProblem[] {
  return textProblems(file.doc, file.lines, file.text, schema).map((p) => ({ file: file.rel, ...p }));
}

export function schemaProblems(
  file: LoadedFile,
  validate: ValidateFunction,
  schema: JsonSchema,
  access: FileAccess,
): ContentProblem[] {
  if (validate(file.data)) return [];
  const errors = withoutTagRequired(validate.errors ?? []);
  // A misspelt field is also a missing one: say which it was meant to be, once.
  const missing = errors.filter((e) => e.keyword === "required");
  const meant = new Map<ErrorObject, string>();
  for (const error of errors) {
    if (error.keyword !== "additionalProperties") continue;
    const typed = String((error.params as { additionalProperty: string }).additionalProperty);
    const candidates = missing
      .filter((m) => m.instancePath === error.instancePath)
      .map((m) => String((m.params as { missingProperty: string }).missingProperty));
    const guess = similar(typed, candidates);
    if (guess) meant.set(error, guess);
  }
  const explained = new Set(meant.values());
  return errors
    .filter(
      (e) =>
        !(e.keyword === "required" && explained.has(String((e.params as { missingProperty: string }).missingProperty))),
    )
    .map((error) => {
      const guess = meant.get(error);
      if (!guess)
        return withEntryKind(
          file,
          schema,
          error,
          pointerToPath(error.instancePath),
          schemaProblem(file, error, schema, access),
        );
      const field = String((error.params as { additionalProperty: string }).additionalProperty);
      return locate(
        file,
        [...pointerToPath(error.instancePath), field],
        `is not a known field: did you mean "${guess}"? Rename it to ${guess} (a required field)`,
      );
    });
}

export function schemaProblem(
  file: LoadedFile,
  error: ErrorObject,
  root: JsonSchema,
  access: FileAccess,
): ContentProblem {
  const at = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  // A value that reads right: what is wrong is a character in it, or the quotes around it.
  if (["type", "pattern", "enum", "format"].includes(error.keyword)) {
    const node = file.doc.getIn(at, true);
    const odd = oddValueProblem(file, undefined, isScalar(node) ? node : undefined, at);
    if (odd) return odd;
    const quoted = quotedValueAdvice(error.data, at[at.length - 1]);
    if (quoted) return locate(file, at, quoted);
  }
  switch (error.keyword) {
    case "required":
      return locate(file, [...at, String(params.missingProperty)], "is missing (it is required)", at);
    case "dependencies":
      return locate(
        file,
        [...at, String(params.missingProperty)],
        `is missing: it is required when ${String(params.property)} is given`,
        at,
      );
    case "discriminator":
      return typedEntryProblem(file, root, error, at);
    case "enum": {
      const allowed = ((error.parentSchema as { enum?: unknown[] })?.enum ?? []).map(String);
      return locate(file, at, `${JSON.stringify(error.data)} is not allowed here: write one of ${allowed.join(", ")}`);
    }
    case "additionalProperties": {
      const allowed = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
      const typed = String(params.additionalProperty);
      const guess = similar(typed, allowed);
      return locate(
        file,
        [...at, typed],
        guess
          ? `is not a known field: did you mean "${guess}"? (known fields here: ${allowed.join(", ")})`
          : `is not a known field: check its spelling (known fields here: ${allowed.join(", ")})`,
      );
    }
    case "minItems":
    case "maxItems": {
      const schema = error.parentSchema as { minItems?: number; maxItems?: number };
      const found = Array.isArray(error.data) ? error.data.length : 0;
      const wanted =
        schema.minItems !== undefined && schema.minItems === schema.maxItems
          ? `exactly ${schema.minItems}`
          : error.keyword === "minItems"
            ? `at least ${schema.minItems}`
            : `at most ${schema.maxItems}`;
      return locate(file, at, `must have ${wanted} ${schema.minItems === 1 ? "item" : "items"} (found ${found})`);
    }
    case "pattern": {
      const advice = imagePathAdvice(String(error.data), String(params.pattern), path.posix.dirname(file.rel), (rel) =>
        access.isFile(path.resolve(path.dirname(file.abs), rel)),
      );
      if (advice) return locate(file, at, advice);
      const description = (error.parentSchema as { description?: string })?.description;
      const value = JSON.stringify(error.data);
      return locate(
        file,
        at,
        `${value} is not valid${description ? `: ${description}` : ` (expected the pattern ${params.pattern})`}`,
      );
    }
    case "minLength":
      return locate(file, at, "must not be empty");
    case "maxLength":
      return locate(file, at, `must be at most ${params.limit} characters (found ${String(error.data).length})`);
    case "type":
      if (params.type === "array" && typeof error.data === "string" && startsWithDashWithoutSpace(error.data)) {
        // The line as typed: YAML has joined the lines that follow it into one text.
        const place = locate(file, at, "");
        const line = file.text.split(/\r?\n/)[(place.line ?? 1) - 1] ?? error.data;
        return { ...place, message: `must be a list, but ${dashAdvice(line.slice(line.indexOf("-")))}` };
      }
      return locate(file, at, `must be ${article(String(params.type))} ${params.type}`);
    default:
      return locate(file, at, error.message ?? "is not valid");
  }
}

export function imageProblems(file: LoadedFile, access: FileAccess): ContentProblem[] {
  const problems: ContentProblem[] = [];
  walk(file.data, [], (value, at) => {
    if (typeof value !== "string" || !IMAGE_PATH.test(value)) return;
    const target = path.resolve(path.dirname(file.abs), value);
    const shown = path.join(path.dirname(file.rel), value).split(path.sep).join("/");
    const image = findImageIn(path.dirname(file.abs), value, access.readdir);
    if (!image.found) {
      problems.push(
        locate(file, at, `image file "${value}" was not found (looked for ${shown})${meantImage(value, image.meant)}`),
      );
    } else if (access.readable?.(target) === false) {
      problems.push(
        locate(
          file,
          at,
          `image file "${value}" is not an image the site can read (${shown}: empty, damaged, or another kind of file with an image's name). Save the picture again as JPEG or PNG and put it in its place`,
        ),
      );
    }
  });
  return problems;
}

/** The picture a path not found most likely names: the same but for capitals, or a slip of a letter. */
function meantImage(value: string, meant: string | undefined): string {
  if (!meant) return "";
  const how =
    meant.toLowerCase() === value.toLowerCase()
      ? "the names differ only in capital letters, which count on the published site"
      : "if that is the picture you meant";
  return `: did you mean "${meant}"? Write ${meant} here (${how})`;
}

function walk(value: unknown, at: Segment[], visit: (value: unknown, at: Segment[]) => void): void {
  visit(value, at);
  if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...at, i], visit));
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) walk(item, [...at, key], visit);
  }
}

export function pointerToPath(pointer: string): Segment[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? "an" : "a";
}

/** File by file (in the order first met), then from the top of each file down. */
export function inReadingOrder(problems: ContentProblem[]): ContentProblem[] {
  const files = [...new Set(problems.map((p) => p.file))];
  return problems
    .map((p, i) => ({ p, i }))
    .sort(
      (a, b) =>
        files.indexOf(a.p.file) - files.indexOf(b.p.file) ||
        (a.p.line ?? 0) - (b.p.line ?? 0) ||
        (a.p.column ?? 0) - (b.p.column ?? 0) ||
        a.i - b.i,
    )
    .map(({ p }) => p);
}

export function dedupe(problems: ContentProblem[]): ContentProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
