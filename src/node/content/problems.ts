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

export function formatProblem(p: ContentProblem): string {
  const where = p.line ? `${p.file}:${p.line}${p.column ? `:${p.column}` : ""}` : p.file;
  return `${where}: ${p.field ? `field "${p.field}": ` : ""}${p.message}`;
}

export function formatProblems(problems: readonly ContentProblem[]): string {
  const noun = problems.length === 1 ? "problem" : "problems";
  return [
    `The content check found ${problems.length} ${noun} in data/:`,
    ...problems.map((p) => `  - ${formatProblem(p)}`),
  ].join("\n");
}
