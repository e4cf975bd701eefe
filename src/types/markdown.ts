/**
 * The Markdown subset of added pages' text, as the build hands it to the page: a small tree that the
 * browser renders without a parser (src/components/sections/markdown.tsx). Made at build time by
 * src/node/content/markdown-subset.ts, which refuses anything outside the subset.
 */
export type MarkdownInline =
  | { t: "text"; v: string }
  | { t: "strong" | "em"; c: MarkdownInline[] }
  | { t: "link"; href: string; c: MarkdownInline[] }
  | { t: "br" };

export type MarkdownBlock =
  | { t: "h2" | "h3"; c: MarkdownInline[] }
  | { t: "p"; c: MarkdownInline[] }
  // start: a numbered list's first number when it is not 1 (a list resumed after a paragraph).
  | { t: "ul" | "ol"; items: MarkdownBlock[][]; start?: number };

export type MarkdownTree = MarkdownBlock[];
