/** One thing wrong in the content, located well enough for an editor to fix it. */
export interface ContentProblem {
  /** Path from the project root, e.g. data/services/study-design.yaml */
  file: string;
  /** 1-based line and column in the file, where it can be found. */
  line?: number;
  column?: number;
  /** The field, e.g. cardImage or sections[2].items */
  field?: string;
  /** What is wrong, in plain words, and how to put it right. */
  message: string;
}

/** file:line:column */
export function placeOf(p: ContentProblem): string {
  return p.line ? `${p.file}:${p.line}${p.column ? `:${p.column}` : ""}` : p.file;
}

/** One line: `file:line:column: field "x": message`. */
export function formatProblem(p: ContentProblem): string {
  return `${placeOf(p)}: ${p.field ? `field "${p.field}": ` : ""}${p.message}`;
}

/**
 * The report an editor reads (build, develop, npm run check:content): each problem as its place, then
 * what is wrong and how to fix it on the next line, so that a terminal that wraps long lines does not
 * cut the place in two.
 */
export function formatProblems(problems: readonly ContentProblem[], kind: "problem" | "warning" = "problem"): string {
  const noun = problems.length === 1 ? kind : `${kind}s`;
  return [
    `The content check found ${problems.length} ${noun} in data/:`,
    ...problems.map((p) => `\n  ${placeOf(p)}${p.field ? `, field "${p.field}"` : ""}\n  ${p.message}`),
  ].join("\n");
}
