/**
 * npm run check:content: the build's content check alone, in about a second instead of a build.
 * Prints the problems (exit code 1) and the warnings (exit code 0 when there are only warnings, and
 * the closing line counts them).
 * `npm run check:content -- <folder>` checks another copy of data/.
 */
import fs from "node:fs";
import path from "node:path";
import { formatProblems } from "../node/content/problems";
import { inspectContent } from "../node/content/validate";

const dataDir = path.resolve(process.argv[2] ?? "data");
if (!fs.existsSync(path.join(dataDir, "schemas"))) {
  // A mistyped folder, or an option this command does not take: say so instead of a stack trace.
  console.error(
    `${dataDir} is not a content folder (it has no schemas/ folder).\n` +
      "Use: npm run check:content            checks data/\n" +
      "     npm run check:content -- <folder>  checks another copy of data/",
  );
  process.exit(2);
}
const started = performance.now();
const { problems, warnings } = inspectContent(dataDir, process.cwd());
const took = `${Math.round(performance.now() - started)} ms`;

if (warnings.length > 0) console.warn(`${formatProblems(warnings, "warning")}\n`);
if (problems.length > 0) {
  console.error(`${formatProblems(problems)}\n\nNothing can be built until these are corrected (checked in ${took}).`);
  process.exitCode = 1;
} else {
  const where = `${path.relative(process.cwd(), dataDir) || "."}/`;
  // With warnings, the closing line names them too, so that stdout alone does not read as "all clear".
  const noted = warnings.length === 1 ? "1 warning" : `${warnings.length} warnings`;
  console.log(
    warnings.length > 0
      ? `The content check found no problems in ${where}, and ${noted} (listed above): the site can be built (${took}).`
      : `The content check found no problems in ${where} (${took}).`,
  );
}
