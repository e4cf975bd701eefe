import { isMap, isScalar, isSeq, Scalar, type Document, type LineCounter } from "yaml";
import { withoutCurlyQuotes } from "./curly-quotes";
import type { JsonSchema } from "./graphql-types";
import { formatPath, type Segment } from "./locate";
import { kindOf } from "./typed-lists";

/**
 * Nothing published different from what was typed. YAML reads some unquoted text as something else
 * without a word: `1.10` is the number 1.1, `true` a yes/no value, `2022-01-01` a date, and
 * everything after " #" a comment, so `title: Project Management #1 in Chennai` publishes
 * "Project Management". The JSON Schema says which fields hold text; in those, such values are
 * reported with the quoted form that publishes what the editor typed. Run on a file that
 * parseYaml (yaml-problems.ts) found no problems in.
 */

export interface TextProblem {
  /** 1-based line of the offending text. */
  line: number;
  /** 1-based column of the offending text. */
  column: number;
  /** e.g. sections[2].items[1], counting list positions from 1 */
  field: string;
  message: string;
}

export function textProblems(doc: Document, lines: LineCounter, text: string, schema: JsonSchema): TextProblem[] {
  const problems: TextProblem[] = [];
  new TextChecker(text, lines, schema, problems).walk(doc.contents, schema, []);
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

class TextChecker {
  constructor(
    private readonly text: string,
    private readonly lines: LineCounter,
    private readonly root: JsonSchema,
    private readonly problems: TextProblem[],
  ) {}

  walk(node: unknown, raw: JsonSchema, at: Segment[]): void {
    const resolved = this.resolve(raw);
    if (!resolved) return;
    // An entry of a typed list (a page's section): its own kind's fields.
    const schema = isMap(node) ? (kindOf(this.root, resolved, node.toJSON()) ?? resolved) : resolved;
    const types = typeList(schema);
    if (types.includes("string")) {
      this.checkText(node, types, at);
    } else if (isMap(node)) {
      for (const pair of node.items) {
        if (!isScalar(pair.key)) continue;
        const name = String(pair.key.value);
        // A field the schema does not know is the schema validation's to report.
        const property = schema.properties?.[name];
        if (property) this.walk(pair.value, property, [...at, name]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        const items = Array.isArray(schema.items) ? schema.items[i] : schema.items;
        if (items) this.walk(item, items, [...at, i]);
      });
    }
  }

  /** Follows `$ref`s to `#/...` in the same schema; undefined when one leads nowhere (or in a circle). */
  private resolve(schema: JsonSchema, seen = new Set<string>()): JsonSchema | undefined {
    const ref = schema.$ref;
    if (ref === undefined) return schema;
    if (!ref.startsWith("#") || seen.has(ref)) return undefined;
    let target: unknown = this.root;
    for (const raw of ref.slice(1).split("/").filter(Boolean)) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      target = target && typeof target === "object" ? (target as Record<string, unknown>)[key] : undefined;
    }
    return target && typeof target === "object"
      ? this.resolve(target as JsonSchema, new Set([...seen, ref]))
      : undefined;
  }

  private checkText(node: unknown, types: string[], at: Segment[]): void {
    if (isScalar(node)) {
      if (node.type === Scalar.PLAIN && (this.checkType(node, types, at) || this.checkComment(node, at))) return;
      this.checkTab(node, at);
    } else if ((isMap(node) || isSeq(node)) && node.range) {
      this.checkStructure(node, at);
    }
  }

  /** A plain value that YAML reads as a number, a yes/no value, a date or nothing. */
  private checkType(node: Scalar, types: string[], at: Segment[]): boolean {
    const source = node.source ?? "";
    const value: unknown = node.value;
    if (source === "" || typeof value === "string") return false;
    const fix = `put the whole text in double quotes: ${JSON.stringify(source)}`;
    let message: string | undefined;
    if (typeof value === "number" && !types.includes("number") && !types.includes("integer")) {
      const published = String(value);
      message =
        published === source
          ? `YAML reads ${source} as a number, not text: ${fix}`
          : `YAML reads ${source} as a number and would publish ${published}: ${fix}`;
    } else if (typeof value === "boolean" && !types.includes("boolean")) {
      message = `YAML reads ${source} as a yes/no value, not text: ${fix}`;
    } else if (value === null && !types.includes("null")) {
      message = `YAML reads ${source} as "no value", so the field would be empty: ${fix}`;
    } else if (value instanceof Date) {
      message = `YAML reads ${source} as a date, not text: ${fix}`;
    }
    if (message === undefined) return false;
    this.report(node.range![0], at, message);
    return true;
  }

  /** A " #" after a plain value on its line: YAML drops the rest of the line as a comment. */
  private checkComment(node: Scalar, at: Segment[]): boolean {
    // Text, or nothing at all (`title: #1`); a number that a field may hold keeps its comment.
    if (!node.range || (typeof node.value !== "string" && node.source !== "")) return false;
    const [start, valueEnd] = node.range;
    const lineEnd = this.lineEnd(valueEnd);
    const after = this.text.slice(valueEnd, lineEnd);
    const hash = /^[ \t]*#/.exec(after);
    // `title: #1` has an empty value: the space before "#" is the one after the colon.
    const spaced = hash && (/^[ \t]/.test(after) || /[ \t]/.test(this.text.charAt(valueEnd - 1)));
    if (!hash || !spaced) return false;
    const hashAt = valueEnd + hash[0].length - 1;
    const comment = this.text.slice(hashAt, lineEnd).trimEnd();
    const typed = withoutCurlyQuotes(typeof node.value === "string" ? `${node.value}${after.trimEnd()}` : comment);
    const sameLine = this.lines.linePos(hashAt).line === this.lines.linePos(start).line;
    const fixed = sameLine
      ? `${this.text.slice(this.lineStart(start), start).trimStart()}${JSON.stringify(typed)}`
      : JSON.stringify(typed);
    this.report(
      hashAt,
      at,
      `YAML reads ' #' as the start of a comment, so "${comment}" would not be published: put the whole text in double quotes: ${fixed}`,
    );
    return true;
  }

  /** A tab typed inside the text (not the two characters \t in double quotes). */
  private checkTab(node: Scalar, at: Segment[]): void {
    if (!node.range || typeof node.value !== "string" || !node.value.includes("\t")) return;
    const tab = this.text.slice(node.range[0], node.range[1]).indexOf("\t");
    if (tab >= 0) this.report(node.range[0] + tab, at, "contains a tab character: replace it with a space");
  }

  /** Text that YAML read as a group of fields or a list: `- Study Design: Planning`, `[Draft] Plan`. */
  private checkStructure(node: { range?: [number, number, number] | null; flow?: boolean }, at: Segment[]): void {
    const start = node.range![0];
    const lineStart = this.lineStart(start);
    const line = this.text.slice(lineStart, this.lineEnd(start));
    const from = start - lineStart;
    const fixed = `${line.slice(0, from).trimStart()}${JSON.stringify(withoutCurlyQuotes(line.slice(from).trimEnd()))}`;
    const first = this.text.charAt(start);
    if (node.flow && (first === "[" || first === "{")) {
      const meaning = first === "[" ? "the start of a list" : "the start of a group of fields";
      this.report(
        start,
        at,
        `text starting with ${first} must be in double quotes, or YAML reads ${first} as ${meaning}: ${fixed}`,
      );
    } else if (/^\s*(?:- +)+$/.test(line.slice(0, from)) && /: |:$/.test(line.slice(from).trimEnd())) {
      // Only a list entry can hold "a: b" without a YAML error; "title: a: b" is yaml-problems.ts's.
      this.report(
        start,
        at,
        `text containing ': ' must be in double quotes, or YAML takes the part before ': ' for a field name: ${fixed}`,
      );
    }
  }

  private report(offset: number, at: Segment[], message: string): void {
    const { line, col } = this.lines.linePos(offset);
    this.problems.push({ line, column: col, field: formatPath(at), message });
  }

  private lineStart(offset: number): number {
    return this.text.lastIndexOf("\n", offset - 1) + 1;
  }

  private lineEnd(offset: number): number {
    const end = this.text.indexOf("\n", offset);
    const stop = end < 0 ? this.text.length : end;
    return this.text.charAt(stop - 1) === "\r" ? stop - 1 : stop;
  }
}

function typeList(schema: JsonSchema): string[] {
  if (typeof schema.type === "string") return [schema.type];
  return Array.isArray(schema.type) ? schema.type : [];
}
