/**
 * @jest-environment node
 *
 * The plugin's README has an entry for every Gatsby internal the code names, and they were read from
 * the installed Gatsby.
 */
import fs from "node:fs";
import path from "node:path";
import { GATSBY_CHECKED, INTERNALS } from "../../plugins/gatsby-plugin-cyrus-content/src/internals";

const readme = fs.readFileSync(path.resolve(__dirname, "../../plugins/gatsby-plugin-cyrus-content/README.md"), "utf8");
const versionOf = (name: string) =>
  (JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;

test.each(Object.values(INTERNALS).map((internal) => [internal.name]))("README.md has an entry for %s", (name) => {
  expect(readme).toContain(`### ${name}\n`);
});

test("the internals were checked on the installed Gatsby and gatsby-transformer-yaml", () => {
  expect(readme).toContain(`Gatsby ${GATSBY_CHECKED}`);
  expect(versionOf("gatsby")).toBe(GATSBY_CHECKED);
  expect(readme).toContain(`gatsby-transformer-yaml ${versionOf("gatsby-transformer-yaml")}`);
});
