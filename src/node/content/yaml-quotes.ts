import { Scalar, type YAMLError } from "yaml";
import { type Candidate, type YamlFile } from "./yaml-candidates";
import { INDICATORS, indicatorProblem, quoted } from "./yaml-indicators";

/** A quoted text that runs to where the parser gave up: its closing quote is missing. */
export function unclosedQuote(file: YamlFile, offset: number): Candidate | undefined {
  for (const node of file.scalars) {
    if (node.type !== Scalar.QUOTE_DOUBLE && node.type !== Scalar.QUOTE_SINGLE) continue;
    if (!node.range || node.range[0] > offset) continue;
    const raw = file.text.slice(node.range[0], node.range[1]);
    const quote = raw.charAt(0);
    if (raw.length >= 2 && raw.endsWith(quote)) continue;
    const { line } = file.pos(node.range[0]);
    const name = quote === '"' ? "double" : "single";
    const fixed = `${(file.lineTexts[line - 1] ?? "").trim()}${quote}`;
    return file.problemAt(
      node.range[0],
      `the text in ${name} quotes that starts on line ${line} has no closing ${quote}: add one at the end of the text: ${fixed}`,
    );
  }
  return undefined;
}

/** Mistakes in the value written on the error's line: ": " inside it, an indicator at its start, stray quotes. */
export function valueProblem(file: YamlFile, error: YAMLError): Candidate | undefined {
  const { line, col } = file.pos(error.pos[0]);
  const lineText = file.lineTexts[line - 1] ?? "";
  const start = valueStart(lineText);
  if (start === undefined || col - 1 < start) return undefined;
  const value = lineText.slice(start).trimEnd();
  const offset = file.offsetOfLine(line) + start;
  if (error.code === "BLOCK_AS_IMPLICIT_KEY" && col - 1 === start && /: |:$/.test(value)) {
    return file.problemAt(
      offset,
      `text containing ': ' must be in double quotes, or YAML takes the part before ': ' for a field name: ${quoted(lineText, start)}`,
    );
  }
  const first = value.charAt(0);
  if (first === '"' || first === "'") {
    const inner = value.length >= 2 && value.endsWith(first) ? value.slice(1, -1) : value;
    return file.problemAt(
      offset,
      `the quoted text ends before the end of the line: put the whole text in double quotes, writing \\" for each double quote inside it: ${lineText.slice(0, start).trimStart()}${JSON.stringify(inner)}`,
    );
  }
  const indicator = value.startsWith("- ") || value === "-" ? "- " : first;
  if (indicator in INDICATORS && indicator !== "*" && indicator !== "&" && indicator !== "!") {
    return indicatorProblem(file, offset, indicator);
  }
  return undefined;
}

/** A backslash in double quotes that starts no special character YAML knows: the editor meant the backslash itself. */
export function backslashProblem(file: YamlFile, offset: number): Candidate {
  const { line, col } = file.pos(offset);
  const lineText = file.lineTexts[line - 1] ?? "";
  const at = lineText.lastIndexOf("\\", col - 1);
  if (at < 0) return file.fallback(offset);
  return file.problemAt(
    file.offsetOfLine(line) + at,
    `in double quotes a backslash (\\) starts a special character: write \\\\ for a backslash: ${`${lineText.slice(0, at)}\\${lineText.slice(at)}`.trim()}`,
  );
}

/** Where the value of a `key: value` or `- value` line starts (0-based), or undefined when there is none. */
function valueStart(line: string): number | undefined {
  let column = /^ */.exec(line)![0].length;
  while (line.charAt(column) === "-" && line.charAt(column + 1) === " ") {
    column += 1;
    while (line.charAt(column) === " ") column += 1;
  }
  const key = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s"'[\]{}#&*!|>%@`,?-][^:]*?|-\S[^:]*?):( +|$)/.exec(
    line.slice(column),
  );
  if (key) column += key[0].length;
  return column < line.trimEnd().length ? column : undefined;
}
