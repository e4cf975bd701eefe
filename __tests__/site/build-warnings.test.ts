/**
 * @jest-environment node
 *
 * A build prints no warning nobody can act on: each `warn` Gatsby prints is either gone at its cause
 * or followed by a line of ours saying that it is expected and why. Every warning so far comes while
 * Gatsby bootstraps (plugins, nodes, pages, redirects), so the build of a copy of the project is
 * read up to "bootstrap finished" and stopped there: the rest is the site's own build, which
 * `npm run build` and the other site tests cover.
 */
import fs from "node:fs";
import {
  ADDED_PAGE_TEMPLATE_EXPLAINED,
  ADDED_PAGE_TEMPLATE_WARNING,
  NO_NODES_EXPLAINED,
  NO_NODES_WARNING,
  PG_NATIVE_EXPLAINED,
  PG_NATIVE_WARNING,
} from "../../plugins/gatsby-plugin-cyrus-content/src/expected-warnings";
import { ROOT_REDIRECT_EXPLAINED } from "../../src/node/root-redirect";
import { copyProject, plainText, runGatsby, waitFor } from "../support/project-copy";

/** The warnings that must stay, each with the line of ours that must follow it. */
const EXPLAINED = [
  // The content plugin's nodes are gatsby-transformer-yaml's
  // (plugins/gatsby-plugin-cyrus-content/src/expected-warnings.ts).
  { warning: new RegExp(`^${NO_NODES_WARNING}`), explanation: NO_NODES_EXPLAINED },
  // "/" is a page and a redirect on purpose (src/node/root-redirect.ts).
  { warning: /^There are routes that match both page and redirect/, explanation: ROOT_REDIRECT_EXPLAINED },
  // pg's optional native binding, which the enquiry Function's bundle cannot resolve (same file).
  { warning: PG_NATIVE_WARNING, explanation: PG_NATIVE_EXPLAINED },
  // No page of data/pages/ is built (none yet, or each still being written): its template's query is unused.
  { warning: ADDED_PAGE_TEMPLATE_WARNING, explanation: ADDED_PAGE_TEMPLATE_EXPLAINED },
];

const LEVELS = /(?= (?:success|info|warn|ERROR|error|verbose) )/;

let root: string;
let output = "";

beforeAll(async () => {
  root = copyProject("cyrus-warnings-");
  const build = runGatsby(root, ["build"]);
  try {
    await waitFor(
      "gatsby build to finish bootstrapping",
      () => /bootstrap finished/.test(plainText(build.output())) || build.child.exitCode !== null,
      150_000,
      500,
    );
  } finally {
    await build.stop();
    output = plainText(build.output());
  }
}, 180_000);

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Each `warn` Gatsby printed, as text, and where it ends in the output. */
function warnings(text: string): { text: string; end: number }[] {
  return [...text.matchAll(/ ?warn (.+?)(?:$|(?= (?:success|info|warn|ERROR|error|verbose) ))/g)].map((m) => ({
    text: m[1]!,
    end: m.index + m[0].length,
  }));
}

test("the copy's build got through its bootstrap", () => {
  expect(output).toContain("bootstrap finished");
  expect(output).toContain("success createPages");
});

test("every warning is explained by the next line of ours after it", () => {
  const found = warnings(output);
  console.info(`gatsby build printed ${found.length} warning(s):\n${found.map((w) => `warn ${w.text}`).join("\n")}`);
  for (const { text, end } of found) {
    const known = EXPLAINED.find((e) => e.warning.test(text));
    expect({ warning: text, explained: Boolean(known) }).toEqual({ warning: text, explained: true });
    // The next line that is not Gatsby's own progress ("success ...") is ours.
    const after = output
      .slice(end)
      .split(LEVELS)
      .map((line) => line.trim());
    const next = after.find((line) => line !== "" && !line.startsWith("success "));
    // (Gatsby may print an unlevelled paragraph of its own after ours, as for the unused template's query.)
    expect(next?.startsWith(`info ${known!.explanation}`) ? `info ${known!.explanation}` : next).toBe(
      `info ${known!.explanation}`,
    );
  }
});

test("a line of ours explains a warning only where Gatsby printed it", () => {
  const found = warnings(output);
  for (const { warning, explanation } of EXPLAINED) {
    if (!output.includes(explanation)) continue;
    expect(found.map((w) => w.text)).toEqual(expect.arrayContaining([expect.stringMatching(warning)]));
  }
});
