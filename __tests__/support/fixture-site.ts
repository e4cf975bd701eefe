/**
 * The fixture site: ONE build of a copy of the project holding content added as an editor adds it
 * (docs/editing-content.md): a new service, listed in the Services dropdown, and the page of
 * data/pages/ with a section of every type (the example kept out of production there) made ready
 * and named by one line of the main menu. The built-site tests (added-content.test.ts), the browser
 * tests (added-page.spec.ts) and the benchmark all use it.
 *
 * It lives in .fixture-site/ (git-ignored; jest, ESLint, Prettier and tsc leave it alone) and is
 * built again only when what it is made from changes: a hash of those inputs is written to its
 * stamp after a successful build, so CI builds it once (test:site) and later steps reuse it.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { addFixtureContent } from "./fixture-content";
import { copyProjectInto, gatsbyToEnd, PROJECT_FILES } from "./project-copy";
import { projectRoot } from "./serve";

export { addedService, fixturePage, fixturePageWithoutSlideshow } from "./fixture-content";

export const fixtureRoot = path.join(projectRoot, ".fixture-site");
export const fixturePublic = path.join(fixtureRoot, "public");
/** The last build's output (Gatsby's terminal), for the tests to read. */
export const fixtureBuildLog = path.join(fixtureRoot, "build.log");
const stampFile = path.join(fixtureRoot, "fixture-stamp.json");

/** What the build reads, and the code that makes the copy: a change to any of them means a new build. */
const INPUTS = [
  ...PROJECT_FILES,
  "package-lock.json",
  "__tests__/support/fixture-site.ts",
  "__tests__/support/fixture-content.ts",
  "__tests__/support/project-copy.ts",
  "__tests__/support/added-pages.ts",
];

/** Files a build writes into its inputs, or that it never reads (a local plugin's tests). */
const notInputs = new Set(["gatsby-types.d.ts", "__tests__", "node_modules"]);

function hashTree(hash: ReturnType<typeof createHash>, relative: string): void {
  const abs = path.join(projectRoot, relative);
  if (!fs.existsSync(abs)) return;
  if (fs.statSync(abs).isDirectory()) {
    for (const entry of fs.readdirSync(abs).sort())
      if (!notInputs.has(entry)) hashTree(hash, path.join(relative, entry));
    return;
  }
  hash.update(`${relative}\0`).update(fs.readFileSync(abs)).update("\0");
}

/** The hash of the inputs, with the environment the build bakes in (the site's address, GATSBY_*). */
export function inputsHash(): string {
  const hash = createHash("sha256");
  for (const input of INPUTS) hashTree(hash, input);
  const baked = Object.entries(process.env)
    .filter(([name]) => name === "SITE_URL" || (name.startsWith("GATSBY_") && !/^GATSBY_(TELEMETRY|LOGGER)/.test(name)))
    .sort(([a], [b]) => a.localeCompare(b));
  hash.update(JSON.stringify(baked));
  return hash.digest("hex");
}

/** Why the fixture build cannot be used as it is, or undefined when it is up to date. */
export function fixtureSiteProblem(hash = inputsHash()): string | undefined {
  if (!fs.existsSync(stampFile)) return "the fixture site has not been built (.fixture-site/ has no stamp)";
  const stamp = JSON.parse(fs.readFileSync(stampFile, "utf8")) as { inputs?: string };
  if (stamp.inputs !== hash) return "the fixture site is out of date: its inputs have changed since its build";
  return undefined;
}

/** What to run to build it. */
export const ensureCommand = "npx tsx tools/ensure-fixture-site.ts";

/** Builds the fixture site unless it is up to date; throws with Gatsby's output when the build fails. */
export async function ensureFixtureSite(log: (line: string) => void = console.log): Promise<{ rebuilt: boolean }> {
  const hash = inputsHash();
  const problem = fixtureSiteProblem(hash);
  if (!problem) {
    log("The fixture site (.fixture-site/) is up to date: not rebuilding");
    return { rebuilt: false };
  }
  log(`${problem}: building it (gatsby build in .fixture-site/)…`);
  fs.rmSync(stampFile, { force: true });
  // An earlier build's .cache/ and public/ stay: Gatsby rebuilds only what changed.
  copyProjectInto(fixtureRoot);
  addFixtureContent(fixtureRoot);
  const build = await gatsbyToEnd(fixtureRoot, ["build"], 900_000);
  fs.writeFileSync(fixtureBuildLog, build.output);
  if (build.code !== 0) {
    throw new Error(
      `The fixture site's build failed (exit code ${build.code}); its output (${fixtureBuildLog}) ends:\n${build.output.slice(-4000)}`,
    );
  }
  fs.writeFileSync(stampFile, `${JSON.stringify({ inputs: hash, seconds: build.seconds }, null, 2)}\n`);
  log(`The fixture site was built in ${Math.round(build.seconds)} s`);
  return { rebuilt: true };
}
