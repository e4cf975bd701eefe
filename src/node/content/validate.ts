import fs from "node:fs";
import path from "node:path";
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
import type { LoadedFile } from "./locate";
import { entryKeyProblems } from "./entry-keys";
import { checkReferences, unlistedServices } from "./references";
import { curlyQuoteWarnings } from "./curly-quotes";
import { oddCharacterWarnings } from "./odd-character-values";
import { readImage } from "./image-file";
import { imageSizeWarnings } from "./image-sizes";
import { longTextWarnings } from "./text-length";
import { dedupe, fileProblems, inReadingOrder, parseFile, type FileAccess } from "./file-rules";
import { validatorFor } from "./schema-validators";
import type { JsonSchema } from "./graphql-types";

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
  /**
   * What the editor should know but the site survives: an image smaller or far larger than its place, text far too long
   * for it.
   */
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
      const own = [...fileProblems(loadedFile, validate, schemaJson, disk), ...ymlOf(loadedFile)];
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
  if (own) problems.push(...fileProblems(own, validatorFor(schemaText, schemaJson), schemaJson, disk), ...ymlOf(own));
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

/** The disk, as the file rules (file-rules.ts) read it. */
const disk: FileAccess = {
  readdir: (dir) => {
    try {
      return fs.readdirSync(dir);
    } catch {
      return undefined;
    }
  },
  isFile: existsSpeltSo,
  readable: (file) => readImage(file).width !== undefined,
};

const ymlOf = (file: LoadedFile) => ymlProblems(file.abs, file.rel);

/** A content file named .yml, reported under that name. */
function ymlProblems(abs: string, rel: string): ContentProblem[] {
  if (!YML_FILE.test(abs)) return [];
  const wanted = path.basename(yamlNameOf(abs));
  const advice = fs.existsSync(yamlNameOf(abs))
    ? `${wanted} is already there: if this file is an old copy of it, delete this one; if not, give this one a name of its own ending in .yaml`
    : `rename it to ${wanted}`;
  return [{ file: rel, message: `the file name ends in .yml, but content files end in .yaml: ${advice}` }];
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
