import type { Document, LineCounter } from "yaml";
import type { ContentSource } from "./content-files";
import type { ContentProblem } from "./problems";

export type Segment = string | number;

export interface LoadedFile {
  /** Path from the project root, for messages. */
  rel: string;
  abs: string;
  source: ContentSource;
  /** The file as typed. */
  text: string;
  doc: Document;
  lines: LineCounter;
  data: unknown;
}

/** Builds a problem for the value at `at`, with the place of that value (or of `placeAt`, when it is missing). */
export function locate(file: LoadedFile, at: Segment[], message: string, placeAt: Segment[] = at): ContentProblem {
  const place = placeOf(file, at) ?? placeOf(file, placeAt);
  return {
    file: file.rel,
    line: place?.line,
    column: place?.col,
    field: at.length ? formatPath(at) : undefined,
    message,
  };
}

function placeOf(file: LoadedFile, at: Segment[]): { line: number; col: number } | undefined {
  for (let n = at.length; n >= 0; n -= 1) {
    const node = file.doc.getIn(at.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return file.lines.linePos(node.range[0]);
  }
  return undefined;
}

/** sections[2].items, counting list positions from 1 as an editor does. */
export function formatPath(at: Segment[]): string {
  return at.reduce<string>(
    (out, seg) => (typeof seg === "number" ? `${out}[${seg + 1}]` : out ? `${out}.${seg}` : seg),
    "",
  );
}
