import type { MarkdownBlock, MarkdownInline, MarkdownTree } from "../../types/markdown";

const inlineText = (inlines: readonly MarkdownInline[]): string =>
  inlines.map((i) => (i.t === "text" ? i.v : i.t === "br" ? "\n" : inlineText(i.c))).join("");

const blockText = (block: MarkdownBlock): string =>
  "items" in block ? block.items.map((item) => item.map(blockText).join("\n")).join("\n") : inlineText(block.c);

/**
 * A Markdown tree as plain text, for structured data that takes no markup (FAQPage answers): blocks
 * separated by a blank line, list items one a line, links by their words.
 */
export function markdownText(tree: MarkdownTree): string {
  return tree.map(blockText).join("\n\n");
}
