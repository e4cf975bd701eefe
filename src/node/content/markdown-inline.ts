import type { Token } from "markdown-it";
import type { MarkdownInline } from "../../types/markdown";
import { judgeLink } from "./markdown-link";
import { refuseToken, type Refusal } from "./markdown-refusals";

export interface InlineOut {
  /** Line 0-based within the Markdown text. */
  refuse(line: number, refusal: Refusal): void;
  sitePath(line: number, path: string, href: string): void;
}

/**
 * The inline tree of one paragraph or heading. markdown-it gives its tokens no lines of their own, so
 * a line is counted from the block's first line by the line breaks before it. What is refused is
 * reported, and the tree keeps its words (without the formatting) so that a preview still reads.
 */
export function inlineTree(inline: Token, out: InlineOut): MarkdownInline[] {
  const root: MarkdownInline[] = [];
  const stack: MarkdownInline[][] = [root];
  let line = inline.map?.[0] ?? 0;
  let sawHtml = false;
  for (const token of inline.children ?? []) {
    const top = stack[stack.length - 1] ?? root;
    switch (token.type) {
      case "text":
        addText(top, token.content);
        break;
      case "softbreak":
        addText(top, "\n");
        line += 1;
        break;
      case "hardbreak":
        top.push({ t: "br" });
        line += 1;
        break;
      case "strong_open":
      case "em_open": {
        const node = { t: token.type === "em_open" ? ("em" as const) : ("strong" as const), c: [] as MarkdownInline[] };
        top.push(node);
        stack.push(node.c);
        break;
      }
      case "link_open": {
        const href = String(token.attrGet("href") ?? "");
        const verdict = judgeLink(href);
        if (verdict.kind === "refused") {
          out.refuse(line, { construct: "a link", message: verdict.message });
          stack.push(top); // its words stay, without the link
          break;
        }
        if (verdict.kind === "site") out.sitePath(line, verdict.path, href);
        const node = { t: "link" as const, href, c: [] as MarkdownInline[] };
        top.push(node);
        stack.push(node.c);
        break;
      }
      case "s_open":
        out.refuse(line, refuseToken(token.type, token.content, token.markup));
        stack.push(top);
        break;
      case "strong_close":
      case "em_close":
      case "link_close":
      case "s_close":
        stack.pop();
        break;
      case "html_inline":
        // A closing tag is the same slip as its opening one, already named.
        if (!(sawHtml && token.content.startsWith("</"))) out.refuse(line, refuseToken(token.type, token.content, ""));
        sawHtml = true;
        line += newlines(token.content);
        break;
      case "code_inline":
        out.refuse(line, refuseToken(token.type, token.content, token.markup));
        addText(top, token.content);
        break;
      default:
        out.refuse(line, refuseToken(token.type, token.content, token.markup));
        line += (token.children ?? []).filter((t) => t.type === "softbreak" || t.type === "hardbreak").length;
    }
  }
  return root;
}

function addText(into: MarkdownInline[], text: string): void {
  const last = into[into.length - 1];
  if (last?.t === "text") last.v += text;
  else into.push({ t: "text", v: text });
}

function newlines(text: string): number {
  return text.split("\n").length - 1;
}
