/*
 * PLACEHOLDER, to be replaced by the real renderer of issue 38 (written in parallel): it renders only
 * the paragraphs' text, so that the section components and their tests run until then.
 */
import type { MarkdownInline, MarkdownTree } from "../../types/markdown";

const text = (inlines: readonly MarkdownInline[]): string =>
  inlines.map((i) => (i.t === "text" ? i.v : i.t === "br" ? "\n" : text(i.c))).join("");

export function Markdown({ tree }: { tree: MarkdownTree }) {
  return <>{tree.map((block, i) => (block.t === "p" ? <p key={i}>{text(block.c)}</p> : null))}</>;
}
