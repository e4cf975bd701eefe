import type { Document, LineCounter } from "yaml";
import type { ContentProblem } from "./problems";

export type Segment = string | number;

export interface LoadedFile {
  /** Path from the project root, for messages. */
  rel: string;
  abs: string;
  doc: Document;
  lines: LineCounter;
  data: unknown;
}

const LABEL_KEYS = ["slug", "key", "title", "heading", "label", "caption"] as const;

/** Builds a problem for the value at `at`, with the line of that value (or of `lineAt`, when it is missing). */
export function locate(file: LoadedFile, at: Segment[], message: string, lineAt: Segment[] = at): ContentProblem {
  const [first, ...rest] = at;
  const isEntry = Array.isArray(file.data) && typeof first === "number";
  const fieldPath = isEntry ? rest : at;
  return {
    file: file.rel,
    line: lineOf(file, at) ?? lineOf(file, lineAt),
    entry: isEntry ? describeEntry((file.data as unknown[])[first], first) : undefined,
    field: fieldPath.length ? formatPath(fieldPath) : undefined,
    message,
  };
}

function lineOf(file: LoadedFile, at: Segment[]): number | undefined {
  for (let n = at.length; n >= 0; n -= 1) {
    const node = file.doc.getIn(at.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return file.lines.linePos(node.range[0]).line;
  }
  return undefined;
}

export function describeEntry(item: unknown, index: number): string {
  const record = item && typeof item === "object" ? (item as Record<string, unknown>) : {};
  const key = LABEL_KEYS.find((k) => typeof record[k] === "string");
  return key ? `entry ${index + 1} (${key} "${String(record[key])}")` : `entry ${index + 1}`;
}

/** sections[2].items, counting list positions from 1 as an editor does. */
export function formatPath(at: Segment[]): string {
  return at.reduce<string>(
    (out, seg) => (typeof seg === "number" ? `${out}[${seg + 1}]` : out ? `${out}.${seg}` : seg),
    "",
  );
}
