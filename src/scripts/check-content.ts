/**
 * npm run check:content: the build's content check alone, in about a second instead of a build.
 * Prints the problems (exit code 1) and the warnings (exit code 0 when there are only warnings).
 * `npm run check:content -- <folder>` checks another copy of data/.
 */
import path from "node:path";
import { formatProblems } from "../node/content/problems";
import { inspectContent } from "../node/content/validate";

const dataDir = path.resolve(process.argv[2] ?? "data");
const started = performance.now();
const { problems, warnings } = inspectContent(dataDir, process.cwd());
const took = `${Math.round(performance.now() - started)} ms`;

if (warnings.length > 0) console.warn(`${formatProblems(warnings, "warning")}\n`);
if (problems.length > 0) {
  console.error(`${formatProblems(problems)}\n\nNothing can be built until these are corrected (checked in ${took}).`);
  process.exitCode = 1;
} else {
  console.log(`The content check found no problems in ${path.relative(process.cwd(), dataDir) || "."}/ (${took}).`);
}
