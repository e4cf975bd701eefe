import type { ContentSource } from "./content-files";
import type { JsonSchema } from "./json-schema";
import type { Segment } from "./locate";
import { parseMarkdownSubset, type MarkdownSubsetOptions } from "./markdown-subset";
import { visit } from "./schema-walk";
import { servicePath } from "../../utils/routes";
import { addedPagePath } from "./site-paths";

/**
 * Every place of the content that refers to something else, found from the schemas' own marks, so that a
 * kind of reference a later schema adds is found without a list of collections here:
 * - `"x-link": { to, by }`: the value names an entry of another collection by its field `by` (the
 *   Services menu names services by slug, a gallery names approvals by key);
 * - `"x-site-path": true`: the value is the address of a page of the site (a menu link, a card's link,
 *   a button);
 * - `"x-markdown": true`: each link of the text to a page of the site.
 * The content check resolves these (page-checks.ts: "links to …, but no page of the site has that
 * address"); the studio's delete guard (admin/src/delete-guard.ts) looks up who refers to the entry it is
 * asked to delete. Neither reads the disk here: plain data in, places out (the studio bundles this).
 */

/** A content file as far as the index reads it: its path for messages, what it is, and its data. */
export interface IndexedFile {
  rel: string;
  source: Pick<ContentSource, "file" | "schema">;
  data: unknown;
}

export type Reference =
  | {
      kind: "address";
      file: string;
      at: Segment[];
      /** As written: /contact#form */
      href: string;
      /** The page it leads to: without ?query, #place or a slash at the end (/contact). */
      address: string;
      /** For a link in a text: its line, as `markdownOptions` map it. */
      line?: number;
    }
  | {
      kind: "entry";
      file: string;
      at: Segment[];
      /** The collection named: "services/*.yaml" */
      collection: string;
      /** The field of its entries the value is: "slug" */
      by: string;
      value: string;
    };

/** The page a link leads to, as the content check resolves it. */
export const addressOf = (href: string): string => href.replace(/[?#].*$/, "").replace(/(.)\/$/, "$1");

export interface IndexOptions {
  /** How a text's lines are reported (the check maps them to the file's lines). */
  markdownOptions?: (file: IndexedFile, at: Segment[]) => MarkdownSubsetOptions;
}

/** The references of these files, file by file in the order given, each file's from the top down. */
export function referenceIndex(
  files: readonly IndexedFile[],
  schemaOf: (source: IndexedFile["source"]) => JsonSchema | undefined,
  options: IndexOptions = {},
): Reference[] {
  const found: Reference[] = [];
  for (const file of files) {
    const schema = schemaOf(file.source);
    if (!schema) continue;
    visit(schema, schema, file.data, [], (property, value, at) => {
      if (typeof value !== "string") return;
      const link = property["x-link"];
      if (link && typeof link.to === "string" && typeof link.by === "string")
        found.push({ kind: "entry", file: file.rel, at, collection: link.to, by: link.by, value });
      if (property["x-site-path"] === true)
        found.push({ kind: "address", file: file.rel, at, href: value, address: addressOf(value) });
      if (property["x-markdown"] === true) {
        const parsed = parseMarkdownSubset(value, options.markdownOptions?.(file, at));
        for (const { href, line } of parsed.sitePaths)
          found.push({ kind: "address", file: file.rel, at, href, address: addressOf(href), line });
      }
    });
  }
  return found;
}

/** The addresses an entry's page has on the site, if it has one: an added page's, a service's. */
export function addressesOf(source: Pick<ContentSource, "file">, data: unknown): string[] {
  const slug = data && typeof data === "object" ? (data as Record<string, unknown>).slug : undefined;
  if (typeof slug !== "string") return [];
  if (source.file === "pages/*.yaml") return [addedPagePath(slug)];
  if (source.file === "services/*.yaml") return [servicePath(slug)];
  return [];
}

/** The references to the entry of `source` whose data is `data`: by its address, or by a field of it. */
export function referencesTo(
  index: readonly Reference[],
  source: Pick<ContentSource, "file">,
  data: unknown,
): Reference[] {
  const addresses = addressesOf(source, data);
  const row = data && typeof data === "object" ? (data as Record<string, unknown>) : {};
  return index.filter((ref) =>
    ref.kind === "address"
      ? addresses.includes(ref.address)
      : ref.collection === source.file && row[ref.by] === ref.value,
  );
}

/** Whether files of this schema may refer to anything: it marks a relation, a page's address or a text. */
export const mayRefer = (schema: JsonSchema): boolean => /"x-(link|site-path|markdown)"/.test(JSON.stringify(schema));
