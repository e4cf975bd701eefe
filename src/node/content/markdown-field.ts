import type { MarkdownTree } from "../../types/markdown";

/**
 * The GraphQL field extension behind `@markdownSubset` (graphql-types.ts writes it on each field the
 * schema marks `"x-markdown": true`): the field's Markdown as the tree the page renders, made when a
 * query asks for it, so that the browser never gets the parser. The content check has refused any
 * text outside the subset before the build reads it.
 */
export const MARKDOWN_EXTENSION = "markdownSubset";

interface Info {
  fieldName: string;
}

export const markdownFieldExtension = {
  name: MARKDOWN_EXTENSION,
  extend: () => ({
    resolve: (source: Record<string, unknown>, _args: unknown, _context: unknown, info: Info) =>
      markdownTree(source[info.fieldName]),
  }),
};

/** The tree of a Markdown text; none for a field left out. */
export async function markdownTree(value: unknown): Promise<MarkdownTree | null> {
  if (typeof value !== "string") return null;
  // Loaded on the first query that needs it: markdown-it stays out of every other step of the build.
  const { parseMarkdownSubset } = await import("./markdown-subset");
  return parseMarkdownSubset(value).tree;
}
