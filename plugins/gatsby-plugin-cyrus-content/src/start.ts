import { formatProblems } from "../../../src/node/content/problems";
import { inspectContent, type ContentReport } from "../../../src/node/content/validate";
import { ERROR_ID, type ContentReporter } from "./reporter";
import { NO_PROBLEMS } from "./terminal";

/**
 * The check before Gatsby does anything (onPreInit), in a build and when `gatsby develop` starts: a
 * problem stops it with the report, headed " ERROR #content-check" (`panic` ends the process). Its
 * warnings (a picture far too small or too large, a text far too long: the site still builds) are
 * printed first, as `npm run check:content` prints them.
 */
export function checkAtStart(
  reporter: Pick<ContentReporter, "panic" | "success" | "warn">,
  dataDir: string,
  inspect: (dataDir: string) => ContentReport = inspectContent,
): ContentReport {
  const { problems, warnings } = inspect(dataDir);
  if (warnings.length > 0) reporter.warn(formatProblems(warnings, "warning"));
  if (problems.length > 0) reporter.panic({ id: ERROR_ID, context: { message: formatProblems(problems) } });
  else reporter.success(NO_PROBLEMS);
  return { problems, warnings };
}
