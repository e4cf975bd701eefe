import type { ContentProblem } from "../../../src/node/content/problems";
import { formatProblems } from "../../../src/node/content/problems";
import { ERROR_ID, type ContentReporter } from "./reporter";

export const NO_PROBLEMS = "The content check found no problems in data/";

export const sameProblems = (a: readonly ContentProblem[], b: readonly ContentProblem[]): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * The content report in the terminal of `gatsby develop`: the report as an error that does not stop
 * the server, and one line when the content is good again; nothing when the result is what was
 * printed last (a save that changes nothing, or an image added that no file names yet).
 * `printed`: what the terminal already shows (the check at start-up passed).
 */
export function terminalReport(
  reporter: Pick<ContentReporter, "error" | "success">,
  printed: readonly ContentProblem[] = [],
): (problems: readonly ContentProblem[]) => void {
  let last = printed;
  return (problems) => {
    if (sameProblems(problems, last)) return;
    last = problems;
    if (problems.length > 0) reporter.error({ id: ERROR_ID, context: { message: formatProblems(problems) } });
    else reporter.success(NO_PROBLEMS);
  };
}

/** The line that says a file's warnings are gone. */
export const noWarningsIn = (file: string): string => `The content check found no more warnings in ${file}`;

const byFile = (warnings: readonly ContentProblem[]): Map<string, ContentProblem[]> => {
  const files = new Map<string, ContentProblem[]>();
  for (const w of warnings) files.set(w.file, [...(files.get(w.file) ?? []), w]);
  return files;
};

/**
 * The check's warnings in the terminal of `gatsby develop` (the site still builds: a text far too long
 * for its place, a picture far larger than it needs), file by file: a file's warnings, in the words
 * `npm run check:content` prints, when they changed (a save), and one line when they are gone. The
 * warnings of files that did not change are not printed again on every save.
 * `printed`: what the terminal already shows (the check at start-up printed them all).
 */
export function warningReport(
  reporter: Pick<ContentReporter, "warn" | "info">,
  printed: readonly ContentProblem[] = [],
): (warnings: readonly ContentProblem[]) => void {
  let last = byFile(printed);
  return (warnings) => {
    const now = byFile(warnings);
    for (const file of new Set([...last.keys(), ...now.keys()])) {
      const before = last.get(file) ?? [];
      const after = now.get(file) ?? [];
      if (sameProblems(before, after)) continue;
      if (after.length > 0) reporter.warn(formatProblems(after, "warning"));
      else reporter.info(noWarningsIn(file));
    }
    last = now;
  };
}
