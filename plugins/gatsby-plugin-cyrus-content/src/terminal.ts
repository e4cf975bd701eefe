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
