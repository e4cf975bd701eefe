import { isAlias, isScalar, visit, type Pair, type Scalar, type YAMLError } from "yaml";
import { dashAdvice, startsWithDashWithoutSpace } from "./list-dash";
import { type Candidate, type YamlFile } from "./yaml-candidates";
import { lineShape, type LineShape } from "./yaml-indentation";

/** A "---" (or "...") line: what follows is a second document, and a content file is one. */
export function secondDocument(file: YamlFile, offset: number): Candidate {
  for (let line = file.pos(offset).line; line >= 1; line -= 1) {
    const marker = /^(---|\.\.\.)(\s|$)/.exec(file.lineTexts[line - 1] ?? "")?.[1];
    if (marker === undefined) continue;
    const does = marker === "---" ? "starts a second document" : "ends the document";
    return file.problemAt(
      file.offsetOfLine(line),
      `a line starting with "${marker}" ${does}, and a content file is one document: remove line ${line}`,
    );
  }
  return file.fallback(offset);
}

/** A line of plain text among "name: value" lines or list entries: a new paragraph, or a field without its name. */
export function textWithoutName(file: YamlFile, number: number): Candidate | undefined {
  const line = file.lineTexts[number - 1] ?? "";
  const shape = lineShape(line);
  if (!shape || shape.anchors[0]?.dash) return undefined;
  if (startsWithDashWithoutSpace(line.slice(shape.indent))) {
    return file.problemAt(
      file.offsetOfLine(number) + shape.indent,
      `line ${number}: ${dashAdvice(line.slice(shape.indent))}`,
    );
  }
  if (/^[^#]*?:( |$)/.test(line.trimEnd())) return undefined;
  if (/^["'[{]/.test(line.slice(shape.indent))) return undefined;
  let above: LineShape | undefined;
  for (let n = number - 1; n >= 1 && !above; n -= 1) above = lineShape(file.lineTexts[n - 1] ?? "");
  const entry = above?.anchors[0]?.dash ? '"- text"' : '"name: text"';
  return file.problemAt(
    file.offsetOfLine(number) + shape.indent,
    `line ${number} is text without a field name: write it as ${entry}, or, if it goes on from the text above, indent it two spaces more than the line where that text starts`,
  );
}

export function duplicateProblem(file: YamlFile, error: YAMLError, reported: Set<string>): Candidate | undefined {
  let found: Candidate | undefined;
  visit(file.doc, {
    Map: (_key, map) => {
      const keys = map.items.map((pair: Pair) => pair.key);
      const at = keys.findIndex((key) => (isScalar(key) || isAlias(key)) && key.range?.[0] === error.pos[0]);
      if (at < 0) return undefined;
      const name = String(isScalar(keys[at]) ? (keys[at] as Scalar).value : "");
      const same = keys.filter((key) => isScalar(key) && String(key.value) === name && key.range) as Scalar[];
      const lines = same.map((key) => file.pos(key.range![0]).line);
      const id = `${lines[0]}:${name}`;
      if (!reported.has(id)) {
        reported.add(id);
        const times = lines.length === 2 ? "twice" : `${lines.length} times`;
        found = file.problemAt(error.pos[0], `the field "${name}" appears ${times} (lines ${listed(lines)}): keep one`);
      } else {
        found = undefined;
      }
      return visit.BREAK;
    },
  });
  return found;
}

function listed(numbers: number[]): string {
  return numbers.length <= 1
    ? numbers.join("")
    : `${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
}
