/**
 * What an editor reads when the text of an added page holds Markdown outside the subset: the construct
 * in plain words, as it was typed where that helps to find it, and what to write instead. The line is
 * added by the caller (markdown-subset.ts); docs/checking-content.md lists these messages.
 */
export interface Refusal {
  /** The construct in a few words, e.g. "a level 1 heading". */
  construct: string;
  message: string;
}

const headings = "headings in a page's text are level 2 (## ) or 3 (### )";
const noHtml =
  "a page's text holds no HTML: write it in Markdown (**bold**, *italic*, [words](/contact) for a link, " +
  "a backslash \\ at the end of a line for a line break), or remove it";

/** `markup`: markdown-it's, "#" for `# Title`, "=" for a title underlined with ===. */
export function refuseHeading(level: number, text: string, markup: string): Refusal {
  const construct = `a level ${level} heading`;
  const typed = markup.startsWith("#")
    ? `${markup} ${short(text)}`
    : `${short(text)}" underlined with "${markup.repeat(3)}`;
  if (level === 1) {
    return {
      construct,
      message: `"${typed}" is ${construct}: ${headings}; the page's title is its level 1. Write ## ${short(text)}`,
    };
  }
  return { construct, message: `"${typed}" is ${construct}: ${headings}. Write ### ${short(text)}` };
}

/** A token of markdown-it's that is outside the subset, by its type. */
export function refuseToken(type: string, content: string, markup: string): Refusal {
  switch (type) {
    case "html_block":
    case "html_inline":
      return content.startsWith("<!--")
        ? { construct: "an HTML comment", message: `"${short(content)}" is an HTML comment: ${noHtml}` }
        : { construct: "HTML", message: `"${short(content)}" is HTML: ${noHtml}` };
    case "image":
      return {
        construct: "a picture",
        message:
          "![…](…) is a picture, which a page's text does not hold: put the picture in a picture-with-text section " +
          "or a slideshow; to show the words alone, remove the ! and the brackets",
      };
    case "code_inline":
      return {
        construct: "code",
        message: `${markup}${short(content)}${markup} is between backticks, which Markdown shows as code: a page's text has no code; remove the backticks`,
      };
    case "fence":
      return {
        construct: "a block of code",
        message: `the lines between the ${markup} lines are a block of code, which a page's text does not hold: remove the ${markup} lines`,
      };
    case "code_block":
      return {
        construct: "a block of code",
        message:
          "this line is indented by four spaces or more (more than the lines around it), which Markdown shows as code: " +
          "remove that indentation (under an entry of a list, indent by as much as the entry's text)",
      };
    case "blockquote_open":
      return {
        construct: "a block quote",
        message: "lines that start with > are a block quote, which a page's text does not hold: remove the >",
      };
    case "hr":
      return {
        construct: "a dividing line",
        message: `${markup} on a line of its own is a dividing line, which a page's text does not hold: remove it, or begin the next part with a heading (## …)`,
      };
    case "table_open":
      return {
        construct: "a table",
        message:
          "lines with | between columns are a table, which a page's text does not hold: write it as a list (- …)",
      };
    case "s_open":
      return {
        construct: "struck-through text",
        message: "text between ~~ is struck through, which a page's text does not do: remove the ~~",
      };
    default:
      return {
        construct: "formatting outside the page's Markdown",
        message: `"${short(content || markup || type)}" is Markdown that a page's text does not use: headings (## , ### ), paragraphs, lists, links, **bold** and *italic* only`,
      };
  }
}

function short(text: string): string {
  const line = text.trim().split("\n")[0] ?? "";
  return line.length > 50 ? `${line.slice(0, 47)}…` : line;
}
