/**
 * A save that changes only what changed: the edited data is spliced into the file's current text, so
 * every untouched line (comments, blank lines, quoting, folded paragraphs and their line breaks) stays
 * byte for byte. A changed value replaces its own text, a removed field or list entry takes its own
 * lines away, an added one brings its own lines; nothing else is rewritten. Decap's YAML writer
 * rebuilds the whole file from the data instead (decap-cms#5099), which is what this replaces.
 *
 * Pure: text and data in, text out. Whatever it cannot place (a text that does not parse, a flow
 * `[a, b]` whose content changed) is written anew at that spot only, and the result is read back:
 * should it ever differ from the data, the whole file is written anew rather than saved wrong.
 */
import { isMap, isScalar as isScalarNode, isSeq, parseDocument, type Node, type Pair, type YAMLMap } from "yaml";
import { isScalar, renderScalar, type Scalar, type ScalarHint } from "./scalar";
import { renderEntry, renderKey, writeYaml, type EntryStyle } from "./write";

interface Edit {
  start: number;
  end: number;
  text: string;
}

type Data = Record<string, unknown>;

/** The file's new text: `source` with `data` spliced in; `order` is the form's order of top-level fields. */
export function spliceYaml(source: string, data: Data, order: readonly string[] = []): string {
  const text = source.endsWith("\n") || source === "" ? source : `${source}\n`;
  const doc = text.trim() === "" ? undefined : parseDocument(text);
  if (!doc || doc.errors.length > 0 || !isMap(doc.contents) || doc.contents.flow) return writeYaml(data, order);
  const edits: Edit[] = [];
  new Splicer(text, edits).map(doc.contents, doc.toJS() as Data, data, order);
  let result = text;
  for (const edit of edits.sort((a, b) => b.start - a.start || b.end - a.end))
    result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return sameData(parseDocument(result).toJS(), data) ? result : writeYaml(data, order);
}

/** Deep equality of parsed YAML data (plain objects, arrays and scalars), key order aside. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameData(item, b[i]));
  }
  if (!a || !b || typeof a !== "object" || typeof b !== "object") return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && sameData((a as Data)[key], (b as Data)[key]))
  );
}

const isObject = (value: unknown): value is Data => !!value && typeof value === "object" && !Array.isArray(value);

class Splicer {
  constructor(
    private readonly text: string,
    private readonly edits: Edit[],
  ) {}

  map(node: YAMLMap, before: Data, after: Data, order: readonly string[] = []): void {
    const pairs = new Map<string, Pair<Node, Node | null>>();
    for (const pair of node.items as Pair<Node, Node | null>[])
      if (isScalarNode(pair.key)) pairs.set(String(pair.key.value), pair);
    const column = this.column((node.items[0] as Pair<Node>).key.range![0]);
    // New fields go where the form has them: after the nearest field before them that the file has.
    const rank = (key: string) => (order.includes(key) ? order.indexOf(key) : order.length);
    const keys = [...new Set([...Object.keys(after), ...order.filter((key) => key in after)])].sort(
      (a, b) => rank(a) - rank(b),
    );
    // Before the first field, unless that field shares its line with a list entry's dash: then after it.
    const first = node.items[0] as Pair<Node, Node | null>;
    const ownLine = this.text.slice(this.lineStart(first.key.range![0]), first.key.range![0]).trim() === "";
    let insertAt = ownLine ? this.lineStart(first.key.range![0]) : this.lineEnd(this.lastContent(first));
    let pending = "";
    const flush = () => {
      if (pending) this.edits.push({ start: insertAt, end: insertAt, text: pending });
      pending = "";
    };
    for (const key of keys) {
      const pair = pairs.get(key);
      if (!pair) {
        pending += renderEntry(`${" ".repeat(column)}${renderKey(key)}:`, after[key], column + 2);
        continue;
      }
      flush();
      insertAt = this.lineEnd(this.lastContent(pair));
      if (!sameData(before[key], after[key])) this.value(pair.value, before[key], after[key], pair, column);
    }
    flush();
    for (const [key, pair] of pairs)
      if (!Object.hasOwn(after, key)) this.remove(this.lineStart(pair.key.range![0]), this.lastContent(pair));
  }

  /** A changed value: its own text anew, or, for a list or an object, its changed parts only. */
  private value(node: Node | null, before: unknown, after: unknown, pair: Pair<Node, Node | null>, column: number) {
    if (node && isMap(node) && !node.flow && isObject(before) && isObject(after) && node.items.length > 0)
      return this.map(node, before, after);
    if (node && isSeq(node) && !node.flow && Array.isArray(before) && Array.isArray(after) && after.length > 0)
      return this.seq(node, before, after);
    if (node && isScalarNode(node) && isScalar(after)) return this.scalar(node, after, column + 2);
    const flow = node && isSeq(node) && node.flow && Array.isArray(after) ? flowList(after) : undefined;
    if (flow) {
      this.edits.push({ start: node!.range![0], end: node!.range![1], text: flow });
      return;
    }
    const start = this.lineStart(pair.key.range![0]);
    const prefix = this.text.slice(start, pair.key.range![1]) + ":";
    this.edits.push({ start, end: this.lineEnd(this.lastContent(pair)), text: renderEntry(prefix, after, column + 2) });
  }

  /**
   * A list: entries kept in the same order are left alone (the longest such run); between them, an
   * entry changed in place is spliced, a removed one takes its lines away, an added one brings its own
   * (a moved entry, its original text).
   */
  private seq(node: Node & { items: unknown[] }, before: unknown[], after: unknown[]): void {
    const items = node.items as Node[];
    const dash = this.dashColumn(items[0]!);
    const span = (k: number) => ({
      start: this.lineStart(items[k]!.range![0]),
      end: this.lineEnd(this.lastContent(items[k]!)),
    });
    const removed: number[] = [];
    const inserts: Array<{ at: number; values: unknown[] }> = [];
    let i = 0;
    let j = 0;
    for (const [keepI, keepJ] of [...commonRun(before, after), [before.length, after.length] as const]) {
      const gone = Array.from({ length: keepI - i }, (_, k) => i + k);
      const added = after.slice(j, keepJ);
      // As many entries as were removed and added here are taken for the same entries, changed.
      let inPlace = Math.min(gone.length, added.length);
      if (gone.slice(0, inPlace).some((old, k) => !this.changesInPlace(items[old]!, before[old], added[k])))
        inPlace = 0;
      gone.slice(0, inPlace).forEach((old, k) => this.item(items[old]!, before[old], added[k], dash));
      removed.push(...gone.slice(inPlace));
      const last = i + inPlace - 1;
      if (added.length > inPlace)
        inserts.push({ at: last >= 0 ? span(last).end : span(0).start, values: added.slice(inPlace) });
      i = keepI + 1;
      j = keepJ + 1;
    }
    const moved = removed.map((old) => ({ value: before[old], text: this.text.slice(span(old).start, span(old).end) }));
    for (const { at, values } of inserts) {
      const text = values.map((value) => {
        const found = moved.findIndex((entry) => sameData(entry.value, value));
        if (found === -1) return renderEntry(`${" ".repeat(dash)}-`, value, dash + 2, neighbourStyle(items));
        return moved.splice(found, 1)[0]!.text;
      });
      this.edits.push({ start: at, end: at, text: text.join("") });
    }
    for (const old of removed) this.edits.push({ ...span(old), text: "" });
  }

  private changesInPlace(node: Node, before: unknown, after: unknown): boolean {
    if (isScalar(before) && isScalar(after)) return isScalarNode(node);
    if (!isObject(before) || !isObject(after) || !isMap(node) || node.flow || node.items.length === 0) return false;
    // The first field shares the dash's line: without it, the entry is written anew.
    return Object.hasOwn(after, String((node.items[0] as Pair<Node>).key));
  }

  private item(node: Node, before: unknown, after: unknown, dash: number): void {
    if (isMap(node)) return this.map(node, before as Data, after as Data);
    this.scalar(node, after as Scalar, dash + 2);
  }

  private scalar(node: Node, value: Scalar, indent: number): void {
    const start = node.range![0];
    const end = this.scalarEnd(node);
    const text = renderScalar(value, this.blockIndent(node) ?? indent, this.hint(node));
    // An empty value (`key:`) has no text of its own: the new one needs its space after the colon.
    this.edits.push({ start, end, text: start === end && this.text[start - 1] === ":" ? ` ${text}` : text });
  }

  private remove(start: number, lastContent: number): void {
    this.edits.push({ start, end: this.lineEnd(lastContent), text: "" });
  }

  private hint(node: Node): ScalarHint {
    if (!isScalarNode(node)) return {};
    const type = node.type;
    if (type !== "BLOCK_FOLDED" && type !== "BLOCK_LITERAL") return { type };
    const [header = "", ...lines] = this.text.slice(node.range![0], this.scalarEnd(node)).split("\n");
    const indent = this.blockIndent(node) ?? 0;
    return { type, header: header.trim(), lines: lines.map((line) => line.slice(indent)) };
  }

  /** A block scalar's content indentation, as the file has it. */
  private blockIndent(node: Node): number | undefined {
    if (!isScalarNode(node) || (node.type !== "BLOCK_FOLDED" && node.type !== "BLOCK_LITERAL")) return undefined;
    const body = this.text.slice(node.range![0], this.scalarEnd(node)).split("\n")[1];
    return body === undefined ? undefined : body.length - body.trimStart().length;
  }

  /** Where a scalar's own text ends (a block's trailing line breaks belong to what follows). */
  private scalarEnd(node: Node): number {
    let end = node.range![1];
    while (end > node.range![0] && /\s/.test(this.text[end - 1]!)) end -= 1;
    return end;
  }

  /** Where the last text of a node (or a field: its key and value) ends: its lines end on that line. */
  private lastContent(node: Node | Pair<Node, Node | null> | null): number {
    if (!node) return 0;
    if ("key" in node && "value" in node && !isMap(node))
      return Math.max(this.lastContent(node.key), this.lastContent(node.value));
    if (isMap(node) || isSeq(node))
      return Math.max(
        node.range![0],
        ...(node.items as (Node | Pair<Node, Node | null>)[]).map((n) => this.lastContent(n)),
      );
    if (isScalarNode(node)) return this.scalarEnd(node);
    return node.range?.[1] ?? 0;
  }

  private column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  private dashColumn(item: Node): number {
    return this.column(this.text.lastIndexOf("-", item.range![0] - 1));
  }

  private lineStart(offset: number): number {
    return this.text.lastIndexOf("\n", offset - 1) + 1;
  }

  private lineEnd(offset: number): number {
    const end = this.text.indexOf("\n", offset);
    return end === -1 ? this.text.length : end + 1;
  }
}

/**
 * The longest run of entries that are the same before and after, in the same order (pairs of
 * indexes): what a list edit left alone.
 */
export function commonRun(before: unknown[], after: unknown[]): Array<readonly [number, number]> {
  const n = before.length;
  const m = after.length;
  const lengths = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      lengths[i]![j] = sameData(before[i], after[j])
        ? lengths[i + 1]![j + 1]! + 1
        : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const run: Array<readonly [number, number]> = [];
  for (let i = 0, j = 0; i < n && j < m;) {
    if (sameData(before[i], after[j])) {
      run.push([i, j]);
      i += 1;
      j += 1;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) i += 1;
    else j += 1;
  }
  return run;
}

/** A list of short values written on one line, `[a, b]`, stays on its line: written anew there. */
function flowList(values: unknown[]): string | undefined {
  if (!values.every(isScalar)) return undefined;
  const text = `[${values.map((value) => flowScalar(value as Scalar)).join(", ")}]`;
  return sameData(parseDocument(`key: ${text}`).toJS(), { key: values }) ? text : undefined;
}

function flowScalar(value: Scalar): string {
  const text = renderScalar(value, 0, { type: "PLAIN" });
  return /[,[\]{}]/.test(text) && !text.startsWith('"') ? JSON.stringify(value) : text;
}

const QUOTED = new Set(["QUOTE_DOUBLE", "QUOTE_SINGLE"]);

/** The quoting every entry of a list shares (for a scalar list, or field by field), if they all agree. */
export function neighbourStyle(items: readonly Node[]): EntryStyle {
  const agreed = (types: Array<string | undefined>) => {
    const first = types[0];
    return first && QUOTED.has(first) && types.every((type) => type === first) ? first : undefined;
  };
  if (items.length === 0) return {};
  if (items.every(isScalarNode)) {
    const scalar = agreed(items.map((item) => (item as { type?: string }).type));
    return scalar ? { scalar } : {};
  }
  const byKey = new Map<string, Array<string | undefined>>();
  for (const item of items) {
    if (!isMap(item)) continue;
    for (const pair of item.items as Pair<Node, Node | null>[]) {
      if (!isScalarNode(pair.key) || !isScalarNode(pair.value)) continue;
      const key = String(pair.key.value);
      byKey.set(key, [...(byKey.get(key) ?? []), (pair.value as { type?: string }).type]);
    }
  }
  const fields: Record<string, string> = {};
  for (const [key, types] of byKey) {
    const type = agreed(types);
    if (type) fields[key] = type;
  }
  return { fields };
}
