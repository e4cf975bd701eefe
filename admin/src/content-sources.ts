/**
 * The content files and their schemas, as the studio's build bundles them (admin/scripts/build.ts puts
 * them in __CONTENT_SOURCES__ from src/node/content/content-files.ts and data/schemas): what the content
 * check's own rules, run in the studio, need to know of the site's data.
 */
import type { JsonSchema } from "../../src/node/content/json-schema";

export interface BundledSource {
  /** Relative to data/: "site/site.yaml", or "services/*.yaml" for a collection. */
  file: string;
  schema: string;
  key?: string;
  json: JsonSchema;
}

declare const __CONTENT_SOURCES__: BundledSource[] | undefined;

export const contentSources = (): readonly BundledSource[] =>
  typeof __CONTENT_SOURCES__ === "undefined" ? [] : __CONTENT_SOURCES__;

/** The source of a file as the studio names it (data/services/x.yaml): a file's, or its folder's collection. */
export function sourceOfFile(sources: readonly BundledSource[], file: string): BundledSource | undefined {
  const rel = file.replace(/^data\//, "");
  const folder = rel.slice(0, rel.lastIndexOf("/") + 1);
  return sources.find((s) =>
    s.file.includes("*")
      ? s.file.slice(0, s.file.lastIndexOf("/") + 1) === folder && /\.ya?ml$/i.test(rel)
      : s.file === rel,
  );
}
