/** One thing wrong in the content, located well enough for an editor to fix it. */
export interface ContentProblem {
  /** Path from the project root, e.g. data/services/services.yaml */
  file: string;
  /** 1-based line in the file, where it can be found. */
  line?: number;
  /** The list entry, e.g. entry 3 (slug "study-design"); absent for top-level fields. */
  entry?: string;
  /** The field, e.g. cardImage or sections[2].items */
  field?: string;
  message: string;
}

export function formatProblem(p: ContentProblem): string {
  const where = p.line ? `${p.file}:${p.line}` : p.file;
  const parts = [p.entry, p.field ? `field "${p.field}"` : undefined].filter(Boolean);
  return `${where}: ${parts.length ? `${parts.join(", ")}: ` : ""}${p.message}`;
}

export function formatProblems(problems: readonly ContentProblem[]): string {
  const noun = problems.length === 1 ? "problem" : "problems";
  return [
    `The content in data/ has ${problems.length} ${noun}:`,
    ...problems.map((p) => `  - ${formatProblem(p)}`),
  ].join("\n");
}
