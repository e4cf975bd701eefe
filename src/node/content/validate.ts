import fs from "node:fs";
import path from "node:path";
import type { ValidateFunction, ErrorObject } from "ajv";
import { isScalar } from "yaml";
import {
  collectionFolder,
  contentFiles,
  filesOf,
  isCollection,
  sourceOf,
  YAML_FILE,
  YML_FILE,
  yamlNameOf,
  type ContentSource,
} from "./content-files";
import type { ContentProblem } from "./problems";
import { locate, type LoadedFile, type Segment } from "./locate";
import { entryKeyProblems } from "./entry-keys";
import { checkReferences, unlistedServices } from "./references";
import { similar } from "./similar";
import { curlyQuoteWarnings, quotedValueAdvice } from "./curly-quotes";
import { oddCharacterWarnings, oddValueProblem } from "./odd-character-values";
import { findImage, readImage } from "./image-file";
import { imagePathAdvice } from "./image-path-rule";
import { imageSizeWarnings } from "./image-sizes";
import { dashAdvice, startsWithDashWithoutSpace } from "./list-dash";
import { longTextWarnings } from "./text-length";
import { textProblems } from "./text-problems";
import { parseYaml } from "./yaml-problems";
import { validatorFor } from "./schema-validators";
import type { JsonSchema } from "./graphql-types";
import { typedEntryProblem, withEntryKind, withoutTagRequired } from "./typed-list-problems";

// Relative to the YAML file, with or without "./": the studio (Decap CMS) writes images/x.jpg.
const IMAGE_PATH = /^(\.{1,2}\/)?[\w.-]+(\/[\w.-]+)*\.(jpe?g|png|webp|avif|gif|tiff?)$/i;

/**
 * Checks every content file against its JSON Schema, checks image paths, the files of each collection
 * and cross-file references, and returns the problems found (none: the content is good). Pure: reads
 * files, writes nothing.
 */
export function validateContent(dataDir: string, rootDir: string = path.dirname(dataDir)): ContentProblem[] {
  return inspectContent(dataDir, rootDir).problems;
}

export interface ContentReport {
  /** What stops a build: the site would be broken or different from what was typed. */
  problems: ContentProblem[];
  /** What the editor should know but the site survives: an image smaller or far larger than its place, text far too long for it. */
  warnings: ContentProblem[];
}

/** The content check: problems, and warnings about files that are valid but worse than they should be. */
export function inspectContent(dataDir: string, rootDir: string = path.dirname(dataDir)): ContentReport {
  const relOf = (abs: string) => path.relative(rootDir, abs).split(path.sep).join("/");
  const problems: ContentProblem[] = [];
  const warnings: ContentProblem[] = [];
  const loaded: LoadedFile[] = [];
  /** Files that could not be read: they exist, so references to them are not reported as well. */
  const unreadable: string[] = [];

  for (const source of contentFiles) {
    const files = filesOf(dataDir, source);
    if (!isCollection(source) && !fs.existsSync(path.join(dataDir, source.file))) {
      // Saved as .yml: that file's own problem says to rename it, and this one would name a file that is not there.
      const yml = path.join(dataDir, source.file.replace(/\.yaml$/, ".yml"));
      if (!fs.existsSync(yml))
        problems.push({ file: relOf(path.join(dataDir, source.file)), message: "the file is missing" });
      continue;
    }
    if (files.length < (source.minEntries ?? 0)) {
      problems.push({
        file: `${relOf(path.join(dataDir, collectionFolder(source)))}/`,
        message: `needs at least ${source.minEntries} ${source.schema} file (one file per ${source.schema}, e.g. ${collectionFolder(source)}/<${source.key}>.yaml)`,
      });
    }
    const schemaText = fs.readFileSync(schemaPath(dataDir, source), "utf8");
    const schemaJson = JSON.parse(schemaText) as JsonSchema;
    const validate = validatorFor(schemaText, schemaJson);
    for (const file of files) {
      const abs = path.join(dataDir, file);
      const loadedFile = loadFile(abs, relOf(abs), source, problems);
      if (!loadedFile) {
        unreadable.push(file);
        continue;
      }
      loaded.push(loadedFile);
      const own = fileProblems(loadedFile, validate, schemaJson);
      problems.push(...own);
      warnings.push(
        ...imageSizeWarnings(loadedFile, schemaJson),
        ...longTextWarnings(loadedFile, schemaJson),
        // A value that the schema refuses gets one message, the problem's.
        ...[...curlyQuoteWarnings(loadedFile), ...oddCharacterWarnings(loadedFile)].filter(
          (w) => !own.some((p) => p.line === w.line),
        ),
      );
    }
  }

  problems.push(...strayFiles(dataDir, relOf));
  problems.push(...entryKeyProblems(loaded), ...checkReferences(loaded, unreadable, schemasIn(dataDir)));
  warnings.push(...unlistedServices(loaded, unreadable));
  return { problems: inReadingOrder(dedupe(problems)), warnings: inReadingOrder(warnings) };
}

/**
 * The problems of one content file's text as `inspectContent` reports them when the file holds that
 * text: its own (YAML, text fields, schema, image paths, a file the site does not read) and those it
 * has with other files (an entry of the dropdown or a gallery that names no file, a file name, slug or
 * order another entry has), against the other files as they are on disk. Problems of other files
 * or of a folder are not among them. `file` is relative to `dataDir` (services/study-design.yaml), and
 * need not be on disk. Pure: reads files, writes nothing.
 */
export function checkFileText(
  dataDir: string,
  file: string,
  text: string,
  rootDir: string = path.dirname(dataDir),
): ContentProblem[] {
  const relOf = (abs: string) => path.relative(rootDir, abs).split(path.sep).join("/");
  const abs = path.join(dataDir, file);
  const rel = relOf(abs);
  const source = sourceOf(file);
  // data/schemas/ is not content (nor in Gatsby's File nodes); anything else the site does not read is a stray file.
  if (file.startsWith("schemas/")) return [];
  if (!source) return strayFile(file, abs, rel);
  const problems: ContentProblem[] = [];
  const schemaText = fs.readFileSync(schemaPath(dataDir, source), "utf8");
  const schemaJson = JSON.parse(schemaText) as JsonSchema;
  const own = parseFile(abs, rel, source, text, problems);
  if (own) problems.push(...fileProblems(own, validatorFor(schemaText, schemaJson), schemaJson));
  // Its references and its key, among every content file as inspectContent reads them, this one with the
  // text given.
  const loaded: LoadedFile[] = [];
  const unreadable: string[] = [];
  for (const other of contentFiles) {
    const files = filesOf(dataDir, other);
    if (other === source && !files.includes(file)) files.push(file);
    for (const name of files.sort()) {
      if (name === file) {
        if (own) loaded.push(own);
        else unreadable.push(name);
        continue;
      }
      const otherAbs = path.join(dataDir, name);
      let otherText: string;
      try {
        otherText = fs.readFileSync(otherAbs, "utf8");
      } catch {
        continue; // missing, or removed meanwhile: its own problem, not this file's
      }
      const otherFile = parsedBefore(otherAbs, relOf(otherAbs), other, otherText);
      if (otherFile) loaded.push(otherFile);
      else unreadable.push(name);
    }
  }
  problems.push(...entryKeyProblems(loaded), ...checkReferences(loaded, unreadable, schemasIn(dataDir)));
  return inReadingOrder(dedupe(problems.filter((p) => p.file === rel)));
}

/** Each source's schema, for the reference index (reference-index.ts); a schema that cannot be read has none. */
function schemasIn(dataDir: string): (source: ContentSource) => JsonSchema | undefined {
  const read = new Map<string, JsonSchema | undefined>();
  return (source) => {
    if (!read.has(source.schema)) {
      try {
        read.set(source.schema, JSON.parse(fs.readFileSync(schemaPath(dataDir, source), "utf8")) as JsonSchema);
      } catch {
        read.set(source.schema, undefined);
      }
    }
    return read.get(source.schema);
  };
}

const schemaPath = (dataDir: string, source: ContentSource) =>
  path.join(dataDir, "schemas", `${source.schema}.schema.json`);

/**
 * checkFileText runs on every change `gatsby develop` sees: what it would do again for the same input
 * (parse a file that did not change) is kept, by the text it was made from; schemas, by validatorFor.
 */
const parsed = new Map<string, { text: string; file: LoadedFile | undefined }>();

/** parseFile, without its problems, once per text of a file. */
function parsedBefore(abs: string, rel: string, source: ContentSource, text: string): LoadedFile | undefined {
  const key = `${abs}\0${rel}\0${source.file}`;
  const known = parsed.get(key);
  if (known?.text === text) return known.file;
  const file = parseFile(abs, rel, source, text, []);
  parsed.set(key, { text, file });
  return file;
}

/** Parses one file; its YAML problems (in plain words) go to `problems` and give no file. */
function loadFile(abs: string, rel: string, source: ContentSource, problems: ContentProblem[]): LoadedFile | undefined {
  return parseFile(abs, rel, source, fs.readFileSync(abs, "utf8"), problems);
}

/** Parses a file's text; its YAML problems (in plain words) go to `problems` and give no file. */
function parseFile(
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
function fileProblems(file: LoadedFile, validate: ValidateFunction, schema: JsonSchema): ContentProblem[] {
  const typed = typedTextProblems(file, schema);
  // A text that YAML read as a number is also "not a string" to the schema: its own message says more.
  const typedFields = new Set(typed.map((p) => p.field));
  const refused = schemaProblems(file, validate, schema).filter((p) => !typedFields.has(p.field));
  // A picture's name the schema refused already has its advice (the name to write): one report per slip.
  const refusedFields = new Set(refused.map((p) => p.field));
  return [
    ...typed,
    ...refused,
    ...imageProblems(file).filter((p) => !refusedFields.has(p.field)),
    ...ymlProblems(file.abs, file.rel),
  ];
}

/** A content file named .yml, reported under that name. */
function ymlProblems(abs: string, rel: string): ContentProblem[] {
  if (!YML_FILE.test(abs)) return [];
  const wanted = path.basename(yamlNameOf(abs));
  const advice = fs.existsSync(yamlNameOf(abs))
    ? `${wanted} is already there: if this file is an old copy of it, delete this one; if not, give this one a name of its own ending in .yaml`
    : `rename it to ${wanted}`;
  return [{ file: rel, message: `the file name ends in .yml, but content files end in .yaml: ${advice}` }];
}

/** Text fields that would be published differently from what was typed (a number, a comment, a tab). */
function typedTextProblems(file: LoadedFile, schema: JsonSchema): ContentProblem[] {
  return textProblems(file.doc, file.lines, file.text, schema).map((p) => ({ file: file.rel, ...p }));
}

function schemaProblems(file: LoadedFile, validate: ValidateFunction, schema: JsonSchema): ContentProblem[] {
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
          schemaProblem(file, error, schema),
        );
      const field = String((error.params as { additionalProperty: string }).additionalProperty);
      return locate(
        file,
        [...pointerToPath(error.instancePath), field],
        `is not a known field: did you mean "${guess}"? Rename it to ${guess} (a required field)`,
      );
    });
}

/** YAML files the site would not read (a misspelt folder, a file in the wrong place). */
function strayFiles(dataDir: string, relOf: (abs: string) => string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!(dir === dataDir && entry.name === "schemas")) visit(abs);
      } else if (YAML_FILE.test(entry.name)) {
        const file = path.relative(dataDir, abs).split(path.sep).join("/");
        if (!sourceOf(file)) problems.push(...strayFile(file, abs, relOf(abs)));
      }
    }
  };
  visit(dataDir);
  return problems;
}

/**
 * A YAML file the site would not read: `file` relative to data/, `rel` its path from the project root.
 * One that is a content file but for its .yml is told to rename it.
 */
function strayFile(file: string, abs: string, rel: string): ContentProblem[] {
  if (sourceOf(yamlNameOf(file))) return ymlProblems(abs, rel);
  return [
    {
      file: rel,
      message: `is not a file the site reads. Content files are ${contentFiles.map((s) => `data/${s.file.replace("*", `<${s.key}>`)}`).join(", ")}: move it to the right place, or delete it`,
    },
  ];
}

/** Whether `abs` is a file, spelt exactly so: a case-insensitive disk (macOS) finds Banner.JPG as banner.jpg. */
function existsSpeltSo(abs: string): boolean {
  try {
    return fs.readdirSync(path.dirname(abs)).includes(path.basename(abs)) && fs.statSync(abs).isFile();
  } catch {
    return false;
  }
}

function schemaProblem(file: LoadedFile, error: ErrorObject, root: JsonSchema): ContentProblem {
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
        existsSpeltSo(path.resolve(path.dirname(file.abs), rel)),
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

function imageProblems(file: LoadedFile): ContentProblem[] {
  const problems: ContentProblem[] = [];
  walk(file.data, [], (value, at) => {
    if (typeof value !== "string" || !IMAGE_PATH.test(value)) return;
    const target = path.resolve(path.dirname(file.abs), value);
    const shown = path.join(path.dirname(file.rel), value).split(path.sep).join("/");
    const image = findImage(path.dirname(file.abs), value);
    if (!image.found) {
      problems.push(
        locate(file, at, `image file "${value}" was not found (looked for ${shown})${meantImage(value, image.meant)}`),
      );
    } else if (readImage(target).width === undefined) {
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

function pointerToPath(pointer: string): Segment[] {
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
function inReadingOrder(problems: ContentProblem[]): ContentProblem[] {
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

function dedupe(problems: ContentProblem[]): ContentProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = JSON.stringify(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
