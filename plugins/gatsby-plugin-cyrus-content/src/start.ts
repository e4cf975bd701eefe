import { formatProblems, type ContentProblem } from "../../../src/node/content/problems";
import { validateContent } from "../../../src/node/content/validate";
import { ERROR_ID, type ContentReporter } from "./reporter";
import { NO_PROBLEMS } from "./terminal";

/**
 * The check before Gatsby does anything (onPreInit), in a build and when `gatsby develop` starts: a
 * problem stops it with the report, headed " ERROR #content-check" (`panic` ends the process).
 */
export function checkAtStart(
  reporter: Pick<ContentReporter, "panic" | "success">,
  dataDir: string,
  validate: (dataDir: string) => ContentProblem[] = validateContent,
): ContentProblem[] {
  const problems = validate(dataDir);
  if (problems.length > 0) reporter.panic({ id: ERROR_ID, context: { message: formatProblems(problems) } });
  else reporter.success(NO_PROBLEMS);
  return problems;
}
