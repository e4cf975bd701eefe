import { Scalar } from "yaml";
import { Rank, type Candidate, type YamlFile } from "./yaml-candidates";

/** How many other tab-indented lines the tab message lists before it just counts them. */
const TABS_LISTED = 10;

/** The columns a line sets for the lines after it: where its text starts, and after each "- ". */
export interface LineShape {
  indent: number;
  /** 0-based columns; `dash` marks the column of a "-" that starts a list entry. */
  anchors: { column: number; dash: boolean }[];
  /** Ends with "key:" or a lone "-": the next line may be indented further. */
  opensBlock: boolean;
}

// ---- tabs ----

/** Lines indented with a tab, except comments and lines inside a text value that YAML read without complaint. */
export function tabLines(file: YamlFile): number[] {
  // A tab that YAML complained about on its line, whatever the complaint, is taken for the cause.
  const reported = new Set(file.doc.errors.map((e) => file.pos(e.pos[0]).line));
  const found: number[] = [];
  file.lineTexts.forEach((line, i) => {
    const number = i + 1;
    const lead = /^[ \t]*/.exec(line)![0];
    if (!lead.includes("\t")) return;
    const rest = line.slice(lead.length);
    if (rest === "" || (rest.startsWith("#") && !reported.has(number))) return;
    if (file.continuation.has(number) && !reported.has(number)) return;
    found.push(number);
  });
  return found;
}

export function tabProblem(file: YamlFile, tabLines: number[]): Candidate {
  const [first, ...others] = tabLines as [number, ...number[]];
  const line = file.lineTexts[first - 1] ?? "";
  let also = "";
  if (others.length === 1) also = ` (also line ${others[0]})`;
  else if (others.length > 1 && others.length <= TABS_LISTED) {
    also = ` (also lines ${others.slice(0, -1).join(", ")} and ${others[others.length - 1]})`;
  } else if (others.length > TABS_LISTED) {
    also = ` (also lines ${others.slice(0, TABS_LISTED).join(", ")} and ${others.length - TABS_LISTED} more)`;
  }
  return {
    line: first,
    column: line.indexOf("\t") + 1,
    message: `line ${first} is indented with a tab: use spaces, not tabs, to indent${also}`,
    rank: Rank.Specific,
  };
}

// ---- lines out of step ----

/**
 * A line out of step (usually by one space): it lines up with neither the entries before it nor the
 * lines that contain it. The parser reports that on the line itself or on the line before it.
 */
export function indentationSlip(file: YamlFile, errorLine: number): Candidate | undefined {
  const next = nextSignificantLine(file, errorLine);
  for (const line of next === undefined ? [errorLine] : [errorLine, next]) {
    const slip = slipAt(file, line);
    if (slip) return slip;
  }
  return undefined;
}

function slipAt(file: YamlFile, number: number): Candidate | undefined {
  const shape = lineShape(file.lineTexts[number - 1] ?? "");
  if (!shape) return undefined;
  const isDash = shape.anchors[0]?.dash === true;
  const anchors: { line: number; column: number; dash: boolean }[] = [];
  let limit = Infinity;
  let previous: LineShape | undefined;
  for (let line = number - 1; line >= 1 && limit > 0; line -= 1) {
    if (file.continuation.has(line)) continue;
    const above = lineShape(file.lineTexts[line - 1] ?? "");
    if (!above) continue;
    previous ??= above;
    if (above.indent >= limit) continue;
    for (const anchor of above.anchors) if (anchor.column < limit) anchors.push({ line, ...anchor });
    limit = above.indent;
  }
  if (anchors.length === 0 || anchors.some((a) => a.column === shape.indent)) return undefined;
  const deepest = Math.max(...(previous?.anchors.map((a) => a.column) ?? [0]));
  if (previous?.opensBlock && shape.indent > deepest) return undefined;
  // The nearest column wins; on a tie, a list entry lines up with a "-" and a field with a field,
  // and then the nearest line.
  const target = anchors.reduce((best, a) => {
    const distance = Math.abs(a.column - shape.indent) - Math.abs(best.column - shape.indent);
    if (distance !== 0) return distance < 0 ? a : best;
    if (a.dash !== best.dash) return a.dash === isDash ? a : best;
    return a.line > best.line ? a : best;
  });
  const targetText = file.lineTexts[target.line - 1] ?? "";
  const targetShape = lineShape(targetText);
  if (target.column === targetShape?.indent && startsBlock(file, target.line) && nextAlignsWith(file, number, shape)) {
    // The lines after this one line up with it: the slip is the first line of the block.
    return file.problemAt(
      file.offsetOfLine(target.line) + target.column,
      `line ${target.line} is indented differently from the lines around it: line ${target.line} should start in the same column as line ${number} (column ${shape.indent + 1})`,
    );
  }
  const where =
    target.column > (targetShape?.indent ?? 0)
      ? `, where "${clip(targetText.slice(target.column).trimEnd())}" begins`
      : "";
  return file.problemAt(
    file.offsetOfLine(number) + shape.indent,
    `line ${number} is indented differently from the lines around it: line ${number} should start in the same column as line ${target.line} (column ${target.column + 1})${where}`,
  );
}

/** The line is the first of its block: the first of the file, or the first below a "key:". */
function startsBlock(file: YamlFile, number: number): boolean {
  const shape = lineShape(file.lineTexts[number - 1] ?? "");
  for (let line = number - 1; line >= 1; line -= 1) {
    if (file.continuation.has(line)) continue;
    const above = lineShape(file.lineTexts[line - 1] ?? "");
    if (!above) continue;
    return above.opensBlock && (shape?.indent ?? 0) > Math.max(...above.anchors.map((a) => a.column));
  }
  return true;
}

/** The next line at this line's depth or shallower starts in its column (as a list entry if it is one). */
function nextAlignsWith(file: YamlFile, number: number, shape: LineShape): boolean {
  for (let line = number + 1; line <= file.lineTexts.length; line += 1) {
    const below = lineShape(file.lineTexts[line - 1] ?? "");
    if (!below || below.indent > shape.indent) continue;
    return below.indent === shape.indent && below.anchors[0]?.dash === shape.anchors[0]?.dash;
  }
  return false;
}

/**
 * A list entry indented one space too far is no error for YAML: it reads it as more words of the
 * entry above ("- x" then "   - y" gives the text "x - y"). Wrapped text whose next line starts
 * with "- " is taken for that slip.
 */
export function listSlips(file: YamlFile): Candidate[] {
  const found: Candidate[] = [];
  for (const node of file.scalars) {
    if (node.type !== Scalar.PLAIN || !node.range) continue;
    const first = file.pos(node.range[0]).line;
    const last = file.pos(Math.max(node.range[0], node.range[1] - 1)).line;
    for (let line = first + 1; line <= last; line += 1) {
      if (!/^ *- |^ *-$/.test(file.lineTexts[line - 1] ?? "")) continue;
      const slip = slipAt(file, line);
      if (slip) {
        // One slip makes the rest of the list part of the same text: it is one mistake.
        found.push(slip);
        break;
      }
    }
  }
  return found;
}

function nextSignificantLine(file: YamlFile, after: number): number | undefined {
  for (let line = after + 1; line <= file.lineTexts.length; line += 1) {
    if (lineShape(file.lineTexts[line - 1] ?? "")) return line;
  }
  return undefined;
}

/** The columns where a line's text, and each of its list entries, start; undefined for blank and comment lines. */
export function lineShape(line: string): LineShape | undefined {
  const indent = /^ */.exec(line)![0].length;
  const rest = line.slice(indent);
  // Tab-indented lines are reported on their own; they say nothing reliable about columns.
  if (rest === "" || rest.startsWith("#") || rest.startsWith("\t")) return undefined;
  const anchors: LineShape["anchors"] = [];
  let column = indent;
  while (line.charAt(column) === "-" && (line.charAt(column + 1) === " " || column + 1 === line.length)) {
    anchors.push({ column, dash: true });
    column += 1;
    while (line.charAt(column) === " ") column += 1;
  }
  const content = line.slice(column).replace(/\s+#.*$/, "");
  // A ">" or "|" that starts a block of text sets no column: its text lines set their own.
  if (content !== "" && !content.startsWith("#") && !/^[|>]/.test(content)) anchors.push({ column, dash: false });
  // "key:", a lone "-", or the ">" or "|" that starts a block of text.
  const opensBlock = content === "" || content.startsWith("#") || /:$|(?:^|\s)[|>][-+1-9]*$/.test(content);
  return { indent, anchors, opensBlock };
}

function clip(text: string): string {
  return text.length > 24 ? `${text.slice(0, 21)}...` : text;
}
