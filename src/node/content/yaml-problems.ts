import {
  Document,
  isAlias,
  isCollection,
  isScalar,
  LineCounter,
  parseDocument,
  Scalar,
  visit,
  type Node,
  type Pair,
  type YAMLError,
} from "yaml";
import { withoutCurlyQuotes } from "./curly-quotes";
import { encodingProblem } from "./encoding";
import { invisibleSpaces } from "./invisible-spaces";
import { dashAdvice, startsWithDashWithoutSpace } from "./list-dash";

/**
 * YAML problems in words a content editor understands. The content files are written by people
 * who are not developers: the parser's own messages ("Nested mappings are not allowed in compact
 * mappings") say nothing to them, one tab can give a thousand errors, and some mistakes are not
 * errors at all for YAML (`*Featured*` is a reference to a missing value, `&amp text` loses its
 * first word). So each mistake gets one message that says what is wrong and how to write it.
 */

export interface YamlProblem {
  /** 1-based line of the offending text. */
  line: number;
  /** 1-based column of the offending text. */
  column: number;
  message: string;
}

export interface ParsedYaml {
  doc: Document;
  lines: LineCounter;
  /** undefined when problems were found */
  data?: unknown;
  problems: YamlProblem[];
}

export const FALLBACK_MESSAGE = "this line is not valid YAML: check the quotes, colons and indentation around it";

/** How many other tab-indented lines the tab message lists before it just counts them. */
const TABS_LISTED = 10;

/** What YAML makes of a value starting with each indicator, for the "put it in quotes" message. */
const INDICATORS: Record<string, string> = {
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

/** The kinds of problem, best first: when two land on one line, the more telling one is kept. */
const Rank = { Specific: 0, Fallback: 1 } as const;
type Rank = (typeof Rank)[keyof typeof Rank];

interface Candidate extends YamlProblem {
  rank: Rank;
}

/** Parses one content file with the `yaml` package and reports every YAML-level problem in plain words. Never throws. */
export function parseYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  // Not UTF-8: whatever YAML makes of it says nothing about the file as its editor sees it.
  const encoding = encodingProblem(text);
  if (encoding) return { doc: new Document(null), lines, problems: [encoding] };
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, customTags: ["timestamp"] });
  } catch {
    // The parser does not throw on bad input; this guards the promise of never throwing all the same.
    return { doc: new Document(null), lines, problems: [{ line: 1, column: 1, message: FALLBACK_MESSAGE }] };
  }
  let problems: YamlProblem[];
  try {
    problems = new Analysis(text, doc, lines).problems();
  } catch {
    problems = doc.errors.length > 0 ? [{ line: 1, column: 1, message: FALLBACK_MESSAGE }] : [];
  }
  if (problems.length > 0) return { doc, lines, problems };
  try {
    return { doc, lines, data: doc.toJS(), problems };
  } catch {
    return { doc, lines, problems: [{ line: 1, column: 1, message: FALLBACK_MESSAGE }] };
  }
}

/** The columns a line sets for the lines after it: where its text starts, and after each "- ". */
interface LineShape {
  indent: number;
  /** 0-based columns; `dash` marks the column of a "-" that starts a list entry. */
  anchors: { column: number; dash: boolean }[];
  /** Ends with "key:" or a lone "-": the next line may be indented further. */
  opensBlock: boolean;
}

class Analysis {
  private readonly lineTexts: string[];
  /** 1-based numbers of lines that continue a value begun on an earlier line (wrapped text, block text). */
  private readonly continuation = new Set<number>();
  /** 1-based numbers of the lines of a block of text (after its "|" or ">" line). */
  private readonly blockLines = new Set<number>();
  private readonly scalars: Scalar[] = [];
  private readonly aliases: { offset: number; end: number; isKey: boolean; inFlow: boolean }[] = [];
  private readonly props: { node: Node; isKey: boolean; inFlow: boolean }[] = [];

  constructor(
    private readonly text: string,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {
    this.lineTexts = text.split("\n").map((line) => line.replace(/\r$/, ""));
    visit(doc, (key, node, path) => {
      if (!isScalar(node) && !isAlias(node) && !isCollection(node)) return;
      const parent = path[path.length - 1];
      const collection = key === "key" || key === "value" ? path[path.length - 2] : parent;
      const inFlow = isCollection(collection) && collection.flow === true;
      const isKey = key === "key";
      if (isAlias(node)) {
        if (node.range) this.aliases.push({ offset: node.range[0], end: node.range[1], isKey, inFlow });
        return;
      }
      if (node.anchor !== undefined || isLocalTag(node)) this.props.push({ node, isKey, inFlow });
      if (isScalar(node)) {
        this.scalars.push(node);
        if (node.range) {
          let first = this.pos(node.range[0]).line;
          const last = this.pos(Math.max(node.range[0], node.range[1] - 1)).line;
          if (node.type === Scalar.BLOCK_FOLDED || node.type === Scalar.BLOCK_LITERAL) {
            for (let line = first + 1; line <= last; line += 1) this.blockLines.add(line);
            // The first line of a block of text sets its column, as a field's line does.
            first += 1;
            while (first < last && (this.lineTexts[first - 1] ?? "").trim() === "") first += 1;
          }
          for (let line = first + 1; line <= last; line += 1) this.continuation.add(line);
        }
      }
    });
  }

  problems(): YamlProblem[] {
    const candidates: Candidate[] = [];
    const tabLines = this.tabLines();
    // Each one is reported where it is (the parser would blame another line, or the line for another reason).
    const oddSpaces = invisibleSpaces(this.lineTexts, (line) => this.inBlockText(line));
    const firstTab = Math.min(tabLines[0] ?? Infinity, oddSpaces[0]?.line ?? Infinity);
    const errors = [...this.doc.errors].sort((a, b) => a.pos[0] - b.pos[0]);
    const structural = errors.filter((e) => !LOCAL_CODES.has(e.code) && e.code !== "TAB_AS_INDENT");
    // After the first real syntax error the parser loses its footing: what follows is mostly noise.
    // A tab, or a space that is not one, in the indentation counts as such an error too.
    const first = structural[0];
    const tabAt = firstTab < Infinity ? this.offsetOfLine(firstTab) : this.text.length;
    const firstAt = first ? Math.min(first.pos[0], tabAt) : tabAt;

    candidates.push(...oddSpaces.map((odd) => ({ ...odd, rank: Rank.Specific })));
    if (first && this.pos(first.pos[0]).line < firstTab) candidates.push(this.structuralProblem(first));
    if (tabLines.length > 0) candidates.push(this.tabProblem(tabLines));
    const duplicates = new Set<string>();
    for (const error of errors) {
      if (!LOCAL_CODES.has(error.code)) continue;
      if (error.code === "DUPLICATE_KEY") {
        if (error.pos[0] < firstAt) {
          const problem = this.duplicateProblem(error, duplicates);
          if (problem) candidates.push(problem);
        }
      } else {
        candidates.push(this.localProblem(error));
      }
    }
    for (const warning of this.doc.warnings) {
      // Unknown tags are found by walking the nodes below, with the text that shows the fix.
      if (warning.code === "TAG_RESOLVE_FAILED") continue;
      const offset = warning.pos[0];
      const percent = warning.code === "BAD_DIRECTIVE" && this.text.charAt(offset) === "%";
      candidates.push(percent ? this.indicatorProblem(offset, "%") : this.fallback(offset));
    }
    candidates.push(...this.aliasProblems(), ...this.propProblems());
    candidates.push(...this.listSlips().filter((slip) => this.offsetOfLine(slip.line) < firstAt));
    return pickOnePerLine(candidates);
  }

  /** A line of a block of text (after "|" or ">") that YAML read without complaint: any character there is the text's own. */
  private inBlockText(line: number): boolean {
    return this.blockLines.has(line) && !this.doc.errors.some((e) => this.pos(e.pos[0]).line === line);
  }

  // ---- tabs ----

  /** Lines indented with a tab, except comments and lines inside a text value that YAML read without complaint. */
  private tabLines(): number[] {
    // A tab that YAML complained about on its line, whatever the complaint, is taken for the cause.
    const reported = new Set(this.doc.errors.map((e) => this.pos(e.pos[0]).line));
    const found: number[] = [];
    this.lineTexts.forEach((line, i) => {
      const number = i + 1;
      const lead = /^[ \t]*/.exec(line)![0];
      if (!lead.includes("\t")) return;
      const rest = line.slice(lead.length);
      if (rest === "" || (rest.startsWith("#") && !reported.has(number))) return;
      if (this.continuation.has(number) && !reported.has(number)) return;
      found.push(number);
    });
    return found;
  }

  private tabProblem(tabLines: number[]): Candidate {
    const [first, ...others] = tabLines as [number, ...number[]];
    const line = this.lineTexts[first - 1] ?? "";
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

  // ---- the first syntax error ----

  private structuralProblem(error: YAMLError): Candidate {
    const offset = error.pos[0];
    if (error.code === "MULTIPLE_DOCS") return this.secondDocument(offset);
    return (
      this.unclosedQuote(offset) ??
      this.unclosedList(offset) ??
      this.valueProblem(error) ??
      this.indentationSlip(this.pos(offset).line) ??
      this.textWithoutName(this.pos(offset).line) ??
      this.fallback(offset)
    );
  }

  /** A "---" (or "...") line: what follows is a second document, and a content file is one. */
  private secondDocument(offset: number): Candidate {
    for (let line = this.pos(offset).line; line >= 1; line -= 1) {
      const marker = /^(---|\.\.\.)(\s|$)/.exec(this.lineTexts[line - 1] ?? "")?.[1];
      if (marker === undefined) continue;
      const does = marker === "---" ? "starts a second document" : "ends the document";
      return this.problemAt(
        this.offsetOfLine(line),
        `a line starting with "${marker}" ${does}, and a content file is one document: remove line ${line}`,
      );
    }
    return this.fallback(offset);
  }

  /** A quoted text that runs to where the parser gave up: its closing quote is missing. */
  private unclosedQuote(offset: number): Candidate | undefined {
    for (const node of this.scalars) {
      if (node.type !== Scalar.QUOTE_DOUBLE && node.type !== Scalar.QUOTE_SINGLE) continue;
      if (!node.range || node.range[0] > offset) continue;
      const raw = this.text.slice(node.range[0], node.range[1]);
      const quote = raw.charAt(0);
      if (raw.length >= 2 && raw.endsWith(quote)) continue;
      const { line } = this.pos(node.range[0]);
      const name = quote === '"' ? "double" : "single";
      const fixed = `${(this.lineTexts[line - 1] ?? "").trim()}${quote}`;
      return this.problemAt(
        node.range[0],
        `the text in ${name} quotes that starts on line ${line} has no closing ${quote}: add one at the end of the text: ${fixed}`,
      );
    }
    return undefined;
  }

  /** A "[" or "{" that is never closed: nearly always text that starts with a bracket. */
  private unclosedList(offset: number): Candidate | undefined {
    let found: Candidate | undefined;
    visit(this.doc, {
      Collection: (_key, node) => {
        if (!node.flow || !node.range || node.range[0] > offset) return undefined;
        const raw = this.text.slice(node.range[0], node.range[1]).trimEnd();
        const open = raw.charAt(0);
        if (raw.endsWith(open === "[" ? "]" : "}")) return undefined;
        found = this.indicatorProblem(node.range[0], open);
        return visit.BREAK;
      },
    });
    return found;
  }

  /** Mistakes in the value written on the error's line: ": " inside it, an indicator at its start, stray quotes. */
  private valueProblem(error: YAMLError): Candidate | undefined {
    const { line, col } = this.pos(error.pos[0]);
    const lineText = this.lineTexts[line - 1] ?? "";
    const start = valueStart(lineText);
    if (start === undefined || col - 1 < start) return undefined;
    const value = lineText.slice(start).trimEnd();
    const offset = this.offsetOfLine(line) + start;
    if (error.code === "BLOCK_AS_IMPLICIT_KEY" && col - 1 === start && /: |:$/.test(value)) {
      return this.problemAt(
        offset,
        `text containing ': ' must be in double quotes, or YAML takes the part before ': ' for a field name: ${quoted(lineText, start)}`,
      );
    }
    const first = value.charAt(0);
    if (first === '"' || first === "'") {
      const inner = value.length >= 2 && value.endsWith(first) ? value.slice(1, -1) : value;
      return this.problemAt(
        offset,
        `the quoted text ends before the end of the line: put the whole text in double quotes, writing \\" for each double quote inside it: ${lineText.slice(0, start).trimStart()}${JSON.stringify(inner)}`,
      );
    }
    const indicator = value.startsWith("- ") || value === "-" ? "- " : first;
    if (indicator in INDICATORS && indicator !== "*" && indicator !== "&" && indicator !== "!") {
      return this.indicatorProblem(offset, indicator);
    }
    return undefined;
  }

  private indicatorProblem(offset: number, indicator: string, end?: number): Candidate {
    const { line, col } = this.pos(offset);
    const lineText = this.lineTexts[line - 1] ?? "";
    const shown = indicator === "- " ? '"- "' : indicator;
    const fix = end === undefined ? quoted(lineText, col - 1) : quoted(lineText, col - 1, col - 1 + end - offset);
    return this.problemAt(
      offset,
      `text starting with ${shown} must be in double quotes, or YAML reads ${shown} as ${INDICATORS[indicator]}: ${fix}`,
    );
  }

  /**
   * A line out of step (usually by one space): it lines up with neither the entries before it nor the
   * lines that contain it. The parser reports that on the line itself or on the line before it.
   */
  private indentationSlip(errorLine: number): Candidate | undefined {
    const next = this.nextSignificantLine(errorLine);
    for (const line of next === undefined ? [errorLine] : [errorLine, next]) {
      const slip = this.slipAt(line);
      if (slip) return slip;
    }
    return undefined;
  }

  private slipAt(number: number): Candidate | undefined {
    const shape = lineShape(this.lineTexts[number - 1] ?? "");
    if (!shape) return undefined;
    const isDash = shape.anchors[0]?.dash === true;
    const anchors: { line: number; column: number; dash: boolean }[] = [];
    let limit = Infinity;
    let previous: LineShape | undefined;
    for (let line = number - 1; line >= 1 && limit > 0; line -= 1) {
      if (this.continuation.has(line)) continue;
      const above = lineShape(this.lineTexts[line - 1] ?? "");
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
    const targetText = this.lineTexts[target.line - 1] ?? "";
    const targetShape = lineShape(targetText);
    if (target.column === targetShape?.indent && this.startsBlock(target.line) && this.nextAlignsWith(number, shape)) {
      // The lines after this one line up with it: the slip is the first line of the block.
      return this.problemAt(
        this.offsetOfLine(target.line) + target.column,
        `line ${target.line} is indented differently from the lines around it: line ${target.line} should start in the same column as line ${number} (column ${shape.indent + 1})`,
      );
    }
    const where =
      target.column > (targetShape?.indent ?? 0)
        ? `, where "${clip(targetText.slice(target.column).trimEnd())}" begins`
        : "";
    return this.problemAt(
      this.offsetOfLine(number) + shape.indent,
      `line ${number} is indented differently from the lines around it: line ${number} should start in the same column as line ${target.line} (column ${target.column + 1})${where}`,
    );
  }

  /** A line of plain text among "name: value" lines or list entries: a new paragraph, or a field without its name. */
  private textWithoutName(number: number): Candidate | undefined {
    const line = this.lineTexts[number - 1] ?? "";
    const shape = lineShape(line);
    if (!shape || shape.anchors[0]?.dash) return undefined;
    if (startsWithDashWithoutSpace(line.slice(shape.indent))) {
      return this.problemAt(
        this.offsetOfLine(number) + shape.indent,
        `line ${number}: ${dashAdvice(line.slice(shape.indent))}`,
      );
    }
    if (/^[^#]*?:( |$)/.test(line.trimEnd())) return undefined;
    if (/^["'[{]/.test(line.slice(shape.indent))) return undefined;
    let above: LineShape | undefined;
    for (let n = number - 1; n >= 1 && !above; n -= 1) above = lineShape(this.lineTexts[n - 1] ?? "");
    const entry = above?.anchors[0]?.dash ? '"- text"' : '"name: text"';
    return this.problemAt(
      this.offsetOfLine(number) + shape.indent,
      `line ${number} is text without a field name: write it as ${entry}, or, if it goes on from the text above, indent it two spaces more than the line where that text starts`,
    );
  }

  /** The line is the first of its block: the first of the file, or the first below a "key:". */
  private startsBlock(number: number): boolean {
    const shape = lineShape(this.lineTexts[number - 1] ?? "");
    for (let line = number - 1; line >= 1; line -= 1) {
      if (this.continuation.has(line)) continue;
      const above = lineShape(this.lineTexts[line - 1] ?? "");
      if (!above) continue;
      return above.opensBlock && (shape?.indent ?? 0) > Math.max(...above.anchors.map((a) => a.column));
    }
    return true;
  }

  /** The next line at this line's depth or shallower starts in its column (as a list entry if it is one). */
  private nextAlignsWith(number: number, shape: LineShape): boolean {
    for (let line = number + 1; line <= this.lineTexts.length; line += 1) {
      const below = lineShape(this.lineTexts[line - 1] ?? "");
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
  private listSlips(): Candidate[] {
    const found: Candidate[] = [];
    for (const node of this.scalars) {
      if (node.type !== Scalar.PLAIN || !node.range) continue;
      const first = this.pos(node.range[0]).line;
      const last = this.pos(Math.max(node.range[0], node.range[1] - 1)).line;
      for (let line = first + 1; line <= last; line += 1) {
        if (!/^ *- |^ *-$/.test(this.lineTexts[line - 1] ?? "")) continue;
        const slip = this.slipAt(line);
        if (slip) {
          // One slip makes the rest of the list part of the same text: it is one mistake.
          found.push(slip);
          break;
        }
      }
    }
    return found;
  }

  // ---- problems that stand on their own ----

  private localProblem(error: YAMLError): Candidate {
    const offset = error.pos[0];
    const { line, col } = this.pos(offset);
    const lineText = this.lineTexts[line - 1] ?? "";
    switch (error.code) {
      case "BAD_DQ_ESCAPE": {
        const at = lineText.lastIndexOf("\\", col - 1);
        if (at < 0) return this.fallback(offset);
        return this.problemAt(
          this.offsetOfLine(line) + at,
          `in double quotes a backslash (\\) starts a special character: write \\\\ for a backslash: ${`${lineText.slice(0, at)}\\${lineText.slice(at)}`.trim()}`,
        );
      }
      case "BAD_SCALAR_START": {
        const indicator = this.text.charAt(offset);
        return indicator in INDICATORS ? this.indicatorProblem(offset, indicator) : this.fallback(offset);
      }
      case "BAD_ALIAS":
      case "ALIAS_PROPS":
        return this.text.charAt(offset) === "*" ? this.indicatorProblem(offset, "*") : this.fallback(offset);
      default:
        return this.fallback(offset);
    }
  }

  private duplicateProblem(error: YAMLError, reported: Set<string>): Candidate | undefined {
    let found: Candidate | undefined;
    visit(this.doc, {
      Map: (_key, map) => {
        const keys = map.items.map((pair: Pair) => pair.key);
        const at = keys.findIndex((key) => (isScalar(key) || isAlias(key)) && key.range?.[0] === error.pos[0]);
        if (at < 0) return undefined;
        const name = String(isScalar(keys[at]) ? (keys[at] as Scalar).value : "");
        const same = keys.filter((key) => isScalar(key) && String(key.value) === name && key.range) as Scalar[];
        const lines = same.map((key) => this.pos(key.range![0]).line);
        const id = `${lines[0]}:${name}`;
        if (!reported.has(id)) {
          reported.add(id);
          const times = lines.length === 2 ? "twice" : `${lines.length} times`;
          found = this.problemAt(
            error.pos[0],
            `the field "${name}" appears ${times} (lines ${listed(lines)}): keep one`,
          );
        } else {
          found = undefined;
        }
        return visit.BREAK;
      },
    });
    return found;
  }

  /** `*name`: a reference to another value, which content files never mean. An unknown name would also crash toJS(). */
  private aliasProblems(): Candidate[] {
    return this.aliases.map(({ offset, end, isKey, inFlow }) =>
      this.indicatorProblem(offset, "*", isKey || inFlow ? end : undefined),
    );
  }

  /** `&name` and `!name` before a value: YAML drops them from the text without a word. */
  private propProblems(): Candidate[] {
    return this.props.map(({ node, isKey, inFlow }) => {
      const start = node.range?.[0] ?? 0;
      const anchorAt = node.anchor !== undefined ? this.text.lastIndexOf(`&${node.anchor}`, start) : -1;
      const tagAt = isLocalTag(node) ? this.text.lastIndexOf("!", start) : -1;
      const at = [anchorAt, tagAt].filter((n) => n >= 0).reduce((a, b) => Math.min(a, b), start);
      const indicator = this.text.charAt(at);
      if (!(indicator in INDICATORS)) return this.fallback(start);
      if (isScalar(node)) return this.indicatorProblem(at, indicator, isKey || inFlow ? node.range?.[1] : undefined);
      const props = this.text.slice(at, start).trim();
      return this.problemAt(
        at,
        `remove "${props}": YAML reads ${indicator} as ${INDICATORS[indicator]}, and content files do not use it`,
      );
    });
  }

  // ---- helpers ----

  private fallback(offset: number): Candidate {
    return { ...this.problemAt(offset, FALLBACK_MESSAGE), rank: Rank.Fallback };
  }

  private problemAt(offset: number, message: string): Candidate {
    const { line, col } = this.pos(offset);
    return { line, column: col, message, rank: Rank.Specific };
  }

  /** 1-based line and column of an offset, clamped to the text. */
  private pos(offset: number): { line: number; col: number } {
    const { line, col } = this.lines.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { line: Math.max(1, line), col: Math.max(1, col) };
  }

  private offsetOfLine(line: number): number {
    return this.lines.lineStarts[line - 1] ?? this.text.length;
  }

  private nextSignificantLine(after: number): number | undefined {
    for (let line = after + 1; line <= this.lineTexts.length; line += 1) {
      if (lineShape(this.lineTexts[line - 1] ?? "")) return line;
    }
    return undefined;
  }
}

/** Error codes that concern one value and leave the rest of the file readable. */
const LOCAL_CODES = new Set<string>(["DUPLICATE_KEY", "BAD_DQ_ESCAPE", "BAD_SCALAR_START", "BAD_ALIAS", "ALIAS_PROPS"]);

/** A tag written in the file (`!name`, `!`), as opposed to YAML's own `!!str` and friends. */
function isLocalTag(node: Node): boolean {
  return node.tag !== undefined && !node.tag.startsWith("tag:yaml.org,2002:");
}

/** The columns where a line's text, and each of its list entries, start; undefined for blank and comment lines. */
function lineShape(line: string): LineShape | undefined {
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

/** The line with its text from `from` (to the end, or to `to`) put in double quotes. */
function quoted(line: string, from: number, to?: number): string {
  const end = to ?? line.trimEnd().length;
  // Curly quotes around the text are no quotes to YAML: the straight ones replace them.
  return `${line.slice(0, from)}${JSON.stringify(withoutCurlyQuotes(line.slice(from, end)))}${line.slice(end)}`.trim();
}

function listed(numbers: number[]): string {
  return numbers.length <= 1
    ? numbers.join("")
    : `${numbers.slice(0, -1).join(", ")} and ${numbers[numbers.length - 1]}`;
}

function clip(text: string): string {
  return text.length > 24 ? `${text.slice(0, 21)}...` : text;
}

/** One problem per line (the most telling), in the order of the file. */
function pickOnePerLine(candidates: Candidate[]): YamlProblem[] {
  const byLine = new Map<number, Candidate>();
  for (const candidate of candidates) {
    const kept = byLine.get(candidate.line);
    if (!kept || candidate.rank < kept.rank) byLine.set(candidate.line, candidate);
  }
  return [...byLine.values()]
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .map(({ line, column, message }) => ({ line, column, message }));
}
