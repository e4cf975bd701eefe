import { isScalar, visit } from "yaml";
import { withoutCurlyQuotes } from "./curly-quotes";
import { isLocalTag, type Candidate, type YamlFile } from "./yaml-candidates";

/** What YAML makes of a value starting with each indicator, for the "put it in quotes" message. */
export const INDICATORS: Record<string, string> = {
  "*": "a reference to another value",
  "&": "a label for the value and leaves it out of the text",
  "!": "a type marker and leaves it out of the text",
  "@": "a reserved character",
  "`": "a reserved character",
  "%": "the start of an instruction to YAML",
  ",": "a list separator",
  "[": "the start of a list",
  "]": "the end of a list",
  "{": "the start of a group of fields",
  "}": "the end of a group of fields",
  "|": "the start of a text written over several lines",
  ">": "the start of a text written over several lines",
  "?": "a field-name marker",
  "- ": "the start of a list entry",
};

export function indicatorProblem(file: YamlFile, offset: number, indicator: string, end?: number): Candidate {
  const { line, col } = file.pos(offset);
  const lineText = file.lineTexts[line - 1] ?? "";
  const shown = indicator === "- " ? '"- "' : indicator;
  const fix = end === undefined ? quoted(lineText, col - 1) : quoted(lineText, col - 1, col - 1 + end - offset);
  return file.problemAt(
    offset,
    `text starting with ${shown} must be in double quotes, or YAML reads ${shown} as ${INDICATORS[indicator]}: ${fix}`,
  );
}

/** A "[" or "{" that is never closed: nearly always text that starts with a bracket. */
export function unclosedList(file: YamlFile, offset: number): Candidate | undefined {
  let found: Candidate | undefined;
  visit(file.doc, {
    Collection: (_key, node) => {
      if (!node.flow || !node.range || node.range[0] > offset) return undefined;
      const raw = file.text.slice(node.range[0], node.range[1]).trimEnd();
      const open = raw.charAt(0);
      if (raw.endsWith(open === "[" ? "]" : "}")) return undefined;
      found = indicatorProblem(file, node.range[0], open);
      return visit.BREAK;
    },
  });
  return found;
}

/** `*name`: a reference to another value, which content files never mean. An unknown name would also crash toJS(). */
export function aliasProblems(file: YamlFile): Candidate[] {
  return file.aliases.map(({ offset, end, isKey, inFlow }) =>
    indicatorProblem(file, offset, "*", isKey || inFlow ? end : undefined),
  );
}

/** `&name` and `!name` before a value: YAML drops them from the text without a word. */
export function propProblems(file: YamlFile): Candidate[] {
  return file.props.map(({ node, isKey, inFlow }) => {
    const start = node.range?.[0] ?? 0;
    const anchorAt = node.anchor !== undefined ? file.text.lastIndexOf(`&${node.anchor}`, start) : -1;
    const tagAt = isLocalTag(node) ? file.text.lastIndexOf("!", start) : -1;
    const at = [anchorAt, tagAt].filter((n) => n >= 0).reduce((a, b) => Math.min(a, b), start);
    const indicator = file.text.charAt(at);
    if (!(indicator in INDICATORS)) return file.fallback(start);
    if (isScalar(node)) return indicatorProblem(file, at, indicator, isKey || inFlow ? node.range?.[1] : undefined);
    const props = file.text.slice(at, start).trim();
    return file.problemAt(
      at,
      `remove "${props}": YAML reads ${indicator} as ${INDICATORS[indicator]}, and content files do not use it`,
    );
  });
}

/** The line with its text from `from` (to the end, or to `to`) put in double quotes. */
export function quoted(line: string, from: number, to?: number): string {
  const end = to ?? line.trimEnd().length;
  // Curly quotes around the text are no quotes to YAML: the straight ones replace them.
  return `${line.slice(0, from)}${JSON.stringify(withoutCurlyQuotes(line.slice(from, end)))}${line.slice(end)}`.trim();
}
