/**
 * @jest-environment node
 *
 * The plugin's README lists every Gatsby and webpack internal the code checks, under the name its
 * error messages use.
 */
import fs from "node:fs";
import path from "node:path";
import { GATSBY_CHECKED, INTERNALS } from "../src/internals";

const readme = fs.readFileSync(path.resolve(__dirname, "../README.md"), "utf8");
const gatsbyVersion = (
  JSON.parse(fs.readFileSync(require.resolve("gatsby/package.json"), "utf8")) as { version: string }
).version;

test.each(Object.values(INTERNALS).map((internal) => [internal.name]))("README.md has an entry for %s", (name) => {
  expect(readme).toContain(`### ${name}\n`);
});

test("the internals were checked on the installed Gatsby", () => {
  expect(readme).toContain(`Gatsby ${GATSBY_CHECKED}`);
  expect(gatsbyVersion).toBe(GATSBY_CHECKED);
});
