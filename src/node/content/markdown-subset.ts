import MarkdownIt, { type Token } from "markdown-it";
import { isScalar, Scalar, type LineCounter } from "yaml";
import type { MarkdownBlock, MarkdownTree } from "../../types/markdown";
import { inlineTree } from "./markdown-inline";
import { refuseHeading, refuseToken, type Refusal } from "./markdown-refusals";

/**
 * The Markdown subset of added pages' text (headings level 2 and 3, paragraphs, lists, links, bold,
 * italic, line breaks), parsed at build time into the small tree the page renders
 * (src/types/markdown.ts). The text is read by the full CommonMark rules (and GitHub's tables and
 * strikethrough), so that whatever an editor wrote outside the subset is recognised and named rather
 * than shown as stray signs. Build time only: the browser gets the tree, never this parser.
 */

/** One construct outside the subset, on its line of the file (see `lineOf`). */
export interface MarkdownProblem {
  line: number;
  /** The construct in a few words, e.g. "a level 1 heading". */
  construct: string;
  /** What is wrong and what to write instead, in plain words; it does not repeat the line. */
  message: string;
}

/** A link to a page of the site, for the content check to resolve against the site's routes. */
export interface MarkdownSitePath {
  /** The path without its ?query or #place, e.g. /contact */
  path: string;
  /** The link's address as the tree carries it. */
  href: string;
  line: number;
}

export interface MarkdownSubset {
  tree: MarkdownTree;
  problems: MarkdownProblem[];
  sitePaths: MarkdownSitePath[];
}

export interface MarkdownSubsetOptions {
  /** Maps a 1-based line of the text to the line reported (default: itself); see markdownLinesInYaml. */
  lineOf?: (lineInText: number) => number;
}

// html: true only so that HTML is recognised and refused: nothing here renders HTML.
const md = new MarkdownIt("default", { html: true, linkify: false, typographer: false });
// Every address reaches judgeLink (markdown-link.ts), which names what it refuses; markdown-it's own
// check would leave a javascript: link as unexplained text.
md.validateLink = () => true;

export function parseMarkdownSubset(source: string, options: MarkdownSubsetOptions = {}): MarkdownSubset {
  const lineOf = options.lineOf ?? ((line: number) => line);
  const problems: MarkdownProblem[] = [];
  const sitePaths: MarkdownSitePath[] = [];
  const out = {
    refuse: (line: number, refusal: Refusal) => problems.push({ line: lineOf(line + 1), ...refusal }),
    sitePath: (line: number, path: string, href: string) => sitePaths.push({ path, href, line: lineOf(line + 1) }),
  };
  const tokens = md.parse(source, {});
  let i = 0;

  /** The blocks up to the close of the enclosing list item (consumed) or the end. */
  function blocks(): MarkdownBlock[] {
    const into: MarkdownBlock[] = [];
    while (i < tokens.length) {
      const token = tokens[i] as Token;
      const line = token.map?.[0] ?? 0;
      if (token.nesting === -1) {
        i += 1;
        return into;
      }
      if (token.type === "heading_open" || token.type === "paragraph_open") {
        const inline = tokens[i + 1] as Token;
        const level = Number(token.tag.slice(1));
        if (token.type === "paragraph_open") into.push({ t: "p", c: inlineTree(inline, out) });
        else if (level === 2 || level === 3) into.push({ t: token.tag as "h2" | "h3", c: inlineTree(inline, out) });
        else out.refuse(line, refuseHeading(level, inline.content, token.markup));
        i += 3;
      } else if (token.type === "bullet_list_open" || token.type === "ordered_list_open") {
        i += 1;
        const items: MarkdownBlock[][] = [];
        while (tokens[i]?.type === "list_item_open") {
          i += 1;
          items.push(blocks());
        }
        i += 1;
        const start = Number(token.attrGet("start") ?? 1);
        into.push({ t: token.tag as "ul" | "ol", items, ...(start !== 1 && { start }) });
      } else {
        out.refuse(line, refuseToken(token.type, token.content, token.markup));
        i = token.nesting === 1 ? closeOf(tokens, i) + 1 : i + 1;
      }
    }
    return into;
  }

  return { tree: blocks(), problems, sitePaths };
}

function closeOf(tokens: Token[], open: number): number {
  const { level } = tokens[open] as Token;
  let i = open + 1;
  while (i < tokens.length && !(tokens[i]?.nesting === -1 && tokens[i]?.level === level)) i += 1;
  return i;
}

/**
 * The lines of a Markdown field in its YAML file, for `lineOf`: the text of a block scalar kept with
 * `|` (as the studio writes it) starts on the line after `body: |`, line for line. Text in any other
 * form (quoted, folded with >, plain) has its lines joined or moved by YAML, so every line maps to the
 * field's own line. `node` is the field's node, e.g. doc.getIn(["sections", 0, "body"], true).
 */
export function markdownLinesInYaml(node: unknown, lines: LineCounter): (lineInText: number) => number {
  const start = isScalar(node) && node.range ? lines.linePos(node.range[0]).line : 1;
  if (isScalar(node) && node.type === Scalar.BLOCK_LITERAL) return (line) => start + line;
  return () => start;
}
