import fs from "node:fs";
import path from "node:path";

/**
 * A content file under data/, or a collection of them, and the JSON Schema each file must satisfy
 * (data/schemas/<schema>.schema.json).
 *
 * A collection (`file` with a `*`) is a folder with one file per entry, so that an entry can be added,
 * edited, reviewed and removed on its own: data/services/<slug>.yaml. Each file is named after the
 * value of its `key` field, which is how other files name the entry.
 */
export interface ContentSource {
  /** Relative to data/: "site/site.yaml", or "services/*.yaml" for a collection. */
  file: string;
  schema: string;
  /** Collections: the field whose value names the file (<value>.yaml). */
  key?: string;
  /** Collections: the fewest entries the pages need to render. */
  minEntries?: number;
}

export const contentFiles: readonly ContentSource[] = [
  { file: "site/site.yaml", schema: "site" },
  { file: "navigation/navigation.yaml", schema: "navigation" },
  { file: "services/*.yaml", schema: "service", key: "slug", minEntries: 1 },
  { file: "approvals/*.yaml", schema: "approval", key: "key" },
  // Pages added by editors, at /<slug>, made of sections (none is needed: the site's own pages are the others).
  { file: "pages/*.yaml", schema: "page", key: "slug" },
  { file: "home/home.yaml", schema: "home" },
  { file: "about/about.yaml", schema: "about" },
  { file: "services-page/services-page.yaml", schema: "services-page" },
  { file: "activities/activities.yaml", schema: "activities" },
  { file: "why-cyrus/why-cyrus.yaml", schema: "why-cyrus" },
  { file: "contact/contact.yaml", schema: "contact" },
  { file: "not-found/not-found.yaml", schema: "not-found" },
  { file: "enquiry-results/enquiry-results.yaml", schema: "enquiry-results" },
];

export const YAML_FILE = /\.ya?ml$/i;

/** A YAML file named .yml: the site reads it, but content files are named .yaml (the studio and the docs expect it). */
export const YML_FILE = /\.yml$/i;

/** The name a .yml file should have: services/x.yml -> services/x.yaml. */
export const yamlNameOf = (file: string): string => file.replace(YML_FILE, ".yaml");

export const isCollection = (source: ContentSource): boolean => source.file.includes("*");

/** The folder of a collection, relative to data/: "services". */
export const collectionFolder = (source: ContentSource): string => path.posix.dirname(source.file);

/**
 * The files of a source, relative to data/, sorted: the file itself, or every YAML file of a
 * collection's folder (not its images/ or other subfolders).
 */
export function filesOf(dataDir: string, source: ContentSource): string[] {
  if (!isCollection(source)) return [source.file];
  const folder = collectionFolder(source);
  const abs = path.join(dataDir, folder);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .filter((entry) => entry.isFile() && YAML_FILE.test(entry.name))
    .map((entry) => `${folder}/${entry.name}`)
    .sort();
}

/** The source a file under data/ (relative, with /) belongs to, if any. */
export function sourceOf(file: string): ContentSource | undefined {
  return contentFiles.find((source) =>
    isCollection(source)
      ? path.posix.dirname(file) === collectionFolder(source) && YAML_FILE.test(file)
      : source.file === file,
  );
}

/** The name a collection's file must have for the given key value: "study-design" -> "study-design.yaml". */
export const entryFileName = (keyValue: string): string => `${keyValue}.yaml`;
