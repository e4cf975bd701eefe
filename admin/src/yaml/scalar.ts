/**
 * How one value is written into a YAML file so that it reads back exactly as the editor typed it:
 * plain where that is safe, double-quoted where a YAML reader would take it for something else
 * (`a: b`, ` #`, 2022, 1.10, yes, ~, *x), a long paragraph as a `>-` block folded at the files' width.
 * "Safe" is decided by reading the candidate back, under YAML 1.2 (the site's reader) and 1.1 (older
 * tools read `yes` and `1:20` as a boolean and a number), rather than by a list of rules to keep up.
 */
import { parse } from "yaml";

/** The files keep their lines within 100 columns (a prettier-like width); new blocks are folded there. */
export const LINE_WIDTH = 100;

/** What an existing value looked like, so that a changed one keeps its quoting or its block. */
export interface ScalarHint {
  /** yaml's Scalar.type: PLAIN, QUOTE_DOUBLE, QUOTE_SINGLE, BLOCK_FOLDED, BLOCK_LITERAL. */
  type?: string;
  /** A folded block's header (`>-`) and its content lines without their indentation. */
  header?: string;
  lines?: string[];
}

export type Scalar = string | number | boolean | null;

export const isScalar = (value: unknown): value is Scalar =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

/**
 * The value's text after `key: ` or `- `; a block's content lines are indented by `indent` columns.
 * The first candidate that reads back as the value wins; JSON's double quotes always do.
 */
export function renderScalar(value: Scalar, indent: number, hint: ScalarHint = {}): string {
  if (typeof value !== "string") {
    const text = value === null ? "null" : String(value);
    return readsBack(text, value) ? text : JSON.stringify(String(value));
  }
  const candidates = [...styled(value, indent, hint), JSON.stringify(value)];
  return candidates.find((text) => readsBack(text, value))!;
}

function styled(value: string, indent: number, hint: ScalarHint): string[] {
  const single = !/[\n\r]/.test(value);
  switch (hint.type) {
    case "BLOCK_FOLDED":
      // (A paragraph typed with line breaks cannot be folded: it becomes a literal block.)
      return [refold(value, indent, hint), folded(value, indent, widthOf(hint, indent)), literal(value, indent)].filter(
        isText,
      );
    case "BLOCK_LITERAL":
      return [literal(value, indent)].filter(isText);
    case "QUOTE_DOUBLE":
      return [];
    case "QUOTE_SINGLE":
      return single ? [`'${value.replace(/'/g, "''")}'`] : [];
  }
  if (!single) return [literal(value, indent)].filter(isText);
  // A long paragraph reads best as a folded block, as the files have them.
  if (hint.type === undefined && indent + value.length > LINE_WIDTH)
    return [folded(value, indent, LINE_WIDTH), value].filter(isText);
  return [value];
}

const isText = (text: string | undefined): text is string => typeof text === "string" && text !== "";

/** Whether `key: <text>` reads back as the value, in YAML 1.2 and 1.1 alike. */
export function readsBack(text: string, value: Scalar): boolean {
  if (text === "") return false;
  const source = `key: ${text}\n`;
  try {
    return [parse(source), parse(source, { version: "1.1" })].every(
      (read: unknown) => (read as { key?: unknown } | null)?.key === value,
    );
  } catch {
    return false;
  }
}

/** Text that a folded block can hold line by line: one line of words, single spaces between them. */
const foldable = (value: string) => value !== "" && !/[\n\r\t]| {2}|^ | $/.test(value);

/** Greedy folding at single spaces, each line within `width` columns once indented. */
export function foldLines(value: string, indent: number, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of value.split(" ")) {
    // A line starting with # would read, to people, as a comment: the word stays on the line before.
    if (line !== "" && indent + line.length + 1 + word.length > width && !word.startsWith("#")) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

function block(header: string, lines: string[], indent: number): string {
  const pad = " ".repeat(indent);
  return [header, ...lines.map((line) => (line === "" ? "" : pad + line))].join("\n");
}

function folded(value: string, indent: number, width: number): string | undefined {
  return foldable(value) ? block(">-", foldLines(value, indent, width), indent) : undefined;
}

/** The widest line of the block as it was: a re-folded paragraph keeps its file's width. */
function widthOf(hint: ScalarHint, indent: number): number {
  const widest = Math.max(0, ...(hint.lines ?? []).map((line) => indent + line.length));
  return Math.max(widest, 60);
}

/**
 * A folded block edited in place: the lines before and after the change are kept as they were
 * (one word changed is one line changed), and only the changed stretch is folded anew.
 */
export function refold(value: string, indent: number, hint: ScalarHint): string | undefined {
  const old = hint.lines;
  if (!foldable(value) || !old?.length || !old.every(foldable) || !/^>-?$/.test(hint.header ?? "")) return undefined;
  const header = hint.header!;
  let head = 0;
  let from = 0;
  while (head < old.length) {
    const line = old[head]!;
    const rest = value.slice(from);
    if (rest === line) {
      from = value.length;
      head += 1;
      break;
    }
    if (!rest.startsWith(`${line} `)) break;
    from += line.length + 1;
    head += 1;
  }
  let tail = 0;
  let to = value.length;
  while (head + tail < old.length) {
    const line = old[old.length - 1 - tail]!;
    const start = to - line.length;
    if (start < from || value.slice(start, to) !== line) break;
    // The kept line must start a word: the text before it is a space (or nothing left to fold).
    if (start > from && value[start - 1] !== " ") break;
    to = start > from ? start - 1 : start;
    tail += 1;
  }
  const middle = value.slice(from, to);
  const kept = (lines: string[]) => block(header, lines, indent);
  const before = old.slice(0, head);
  const after = old.slice(old.length - tail);
  if (middle === "") return kept([...before, ...after]);
  if (!foldable(middle)) return undefined;
  return kept([...before, ...foldLines(middle, indent, widthOf(hint, indent)), ...after]);
}

function literal(value: string, indent: number): string | undefined {
  if (/^[ \t]|\r/.test(value) || value === "") return undefined;
  const trailing = /\n*$/.exec(value)![0].length;
  const chomp = trailing === 0 ? "-" : trailing === 1 ? "" : "+";
  const body = trailing === 0 ? value : value.slice(0, -1);
  return block(`|${chomp}`, body.split("\n"), indent);
}
