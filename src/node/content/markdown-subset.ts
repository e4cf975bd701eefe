// PLACEHOLDER (issue 38, schema branch): the real parser is written in another branch and replaces
// this whole file at merge time. It only lets the GraphQL resolver (markdown-field.ts) be built and
// tested: every text becomes one paragraph, nothing is refused.
import type { MarkdownTree } from "../../types/markdown";

export interface MarkdownSubsetResult {
  tree: MarkdownTree;
  problems: Array<{ line: number; message: string }>;
  sitePaths: string[];
}

export function parseMarkdownSubset(source: string): MarkdownSubsetResult {
  return { tree: [{ t: "p", c: [{ t: "text", v: source }] }], problems: [], sitePaths: [] };
}
