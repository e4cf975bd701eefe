/**
 * @jest-environment node
 *
 * README.md is the way in for a newcomer: short, its two quick-start commands true, every command it
 * names a script of package.json, and every test command CI (.ci/run) runs named in it, since CI runs
 * the test commands the README gives.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./support/markdown";

const readme = fs.readFileSync(path.join(projectRoot, "README.md"), "utf8");
const scripts = (
  JSON.parse(fs.readFileSync(path.join(projectRoot, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  }
).scripts;
/** The npm scripts a text runs: `npm test` is the script "test", `npm run x` the script "x". */
const scriptsRun = (text: string) =>
  new Set([...text.matchAll(/\bnpm (?:(test)\b|run (?:--silent )?([\w:-]+))/g)].map((m) => m[1] ?? m[2]!));

test("README.md is at most 8 KB", () => {
  expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(8 * 1024);
});

test("the quick start serves the site with its enquiry endpoint at http://localhost:9000, and runs the tests", () => {
  const block = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  expect(
    block
      .split("\n")
      .filter(Boolean)
      .map((line) => line.replace(/\s+#.*/, "")),
  ).toEqual(["npm ci && npm start", "npm ci && npm test"]);
  expect(block).toContain("http://localhost:9000");
  // gatsby serve serves the Gatsby Functions of src/api/ too: the enquiry endpoint is /api/email.
  expect(scripts.start).toMatch(/gatsby build && gatsby serve --port \$\{PORT:-9000\}$/);
  expect(fs.existsSync(path.join(projectRoot, "src/api/email.ts"))).toBe(true);
  expect(scripts.test).toMatch(/\bjest\b/);
});

test("every command README.md names is a script of package.json", () => {
  expect([...scriptsRun(readme)].filter((name) => !(name in scripts))).toEqual([]);
});

test("every test command CI runs (.ci/run) is one README.md gives", () => {
  const ci = fs.readFileSync(path.join(projectRoot, ".ci/run"), "utf8");
  const tests = [...scriptsRun(ci)].filter((name) => name === "test" || name.startsWith("test:"));
  expect(tests.length).toBeGreaterThan(5);
  const given = scriptsRun(readme);
  expect(
    tests.filter((name) => !given.has(name)).map((name) => (name === "test" ? "npm test" : `npm run ${name}`)),
  ).toEqual([]);
});
