import { isAlias, isCollection, isScalar, Scalar, visit, type Document, type LineCounter, type Node } from "yaml";

export interface YamlProblem {
  /** 1-based line of the offending text. */
  line: number;
  /** 1-based column of the offending text. */
  column: number;
  message: string;
}

export const FALLBACK_MESSAGE = "this line is not valid YAML: check the quotes, colons and indentation around it";

/** The kinds of problem, best first: when two land on one line, the more telling one is kept. */
export const Rank = { Specific: 0, Fallback: 1 } as const;
export type Rank = (typeof Rank)[keyof typeof Rank];

export interface Candidate extends YamlProblem {
  rank: Rank;
}

/** One content file as every detector reads it: its lines, and what the parser made of them, gathered in one walk. */
export class YamlFile {
  readonly lineTexts: string[];
  /** 1-based numbers of lines that continue a value begun on an earlier line (wrapped text, block text). */
  readonly continuation = new Set<number>();
  /** 1-based numbers of the lines of a block of text (after its "|" or ">" line). */
  private readonly blockLines = new Set<number>();
  readonly scalars: Scalar[] = [];
  readonly aliases: { offset: number; end: number; isKey: boolean; inFlow: boolean }[] = [];
  readonly props: { node: Node; isKey: boolean; inFlow: boolean }[] = [];

  constructor(
    readonly text: string,
    readonly doc: Document,
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

  /**
   * A line of a block of text (after "|" or ">") that YAML read without complaint: any character there is the text's
   * own.
   */
  inBlockText(line: number): boolean {
    return this.blockLines.has(line) && !this.doc.errors.some((e) => this.pos(e.pos[0]).line === line);
  }

  fallback(offset: number): Candidate {
    return { ...this.problemAt(offset, FALLBACK_MESSAGE), rank: Rank.Fallback };
  }

  problemAt(offset: number, message: string): Candidate {
    const { line, col } = this.pos(offset);
    return { line, column: col, message, rank: Rank.Specific };
  }

  /** 1-based line and column of an offset, clamped to the text. */
  pos(offset: number): { line: number; col: number } {
    const { line, col } = this.lines.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { line: Math.max(1, line), col: Math.max(1, col) };
  }

  offsetOfLine(line: number): number {
    return this.lines.lineStarts[line - 1] ?? this.text.length;
  }
}

/** A tag written in the file (`!name`, `!`), as opposed to YAML's own `!!str` and friends. */
export function isLocalTag(node: Node): boolean {
  return node.tag !== undefined && !node.tag.startsWith("tag:yaml.org,2002:");
}

/** One problem per line (the most telling), in the order of the file. */
export function pickOnePerLine(candidates: Candidate[]): YamlProblem[] {
  const byLine = new Map<number, Candidate>();
  for (const candidate of candidates) {
    const kept = byLine.get(candidate.line);
    if (!kept || candidate.rank < kept.rank) byLine.set(candidate.line, candidate);
  }
  return [...byLine.values()]
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .map(({ line, column, message }) => ({ line, column, message }));
}
