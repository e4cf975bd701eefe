/**
 * @jest-environment node
 *
 * "Adding a page" in docs/editing-content.md and docs/editing-studio.md cannot drift from the site:
 * - every page written out in YAML there passes the content check as it stands (saved into a copy of
 *   data/ under its slug's name), with neither a problem nor a warning;
 * - every type of section the page schema has is shown by its picture, docs/images/sections/<type>.webp,
 *   which both docs show. The types come from the schema: a new one asks for its picture and its place
 *   in both docs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { inspectContent } from "../../src/node/content/validate";
import { formatProblem } from "../../src/node/content/problems";
import { pictureFile, sectionKinds } from "../../tools/docs/section-types";
import { projectRoot } from "../support/serve";

const DOCS = ["docs/editing-content.md", "docs/editing-studio.md"];
const realData = path.join(projectRoot, "data");

/** The text of a doc's "## Adding a page", up to its next section of the same level. */
function addingAPage(doc: string): string {
  const text = fs.readFileSync(path.join(projectRoot, doc), "utf8");
  const start = text.indexOf("\n## Adding a page\n");
  if (start < 0) throw new Error(`${doc} has no "## Adding a page"`);
  const end = text.indexOf("\n## ", start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The YAML blocks of a text that are whole pages (they have a slug and sections). */
const pageBlocks = (text: string): string[] =>
  [...text.matchAll(/^```ya?ml\n([\s\S]*?)^```$/gm)]
    .map((m) => m[1]!)
    .filter((block) => /^slug:/m.test(block) && /^sections:/m.test(block));

const examples = DOCS.flatMap((doc) => pageBlocks(addingAPage(doc)).map((yaml, i) => ({ doc, i, yaml })));

test("docs/editing-content.md writes out a page with a section of each type", () => {
  const types = sectionKinds(realData).map((k) => k.type);
  const written = examples.filter((e) => e.doc === "docs/editing-content.md");
  expect(written.length).toBeGreaterThan(0);
  const shown = new Set(
    written.flatMap((e) => (parse(e.yaml) as { sections: Array<{ type: string }> }).sections.map((s) => s.type)),
  );
  expect(types.filter((type) => !shown.has(type))).toEqual([]);
});

describe.each(examples)("the page written out in $doc (block $i)", ({ yaml }) => {
  let root: string;
  let file: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-docs-page-"));
    fs.cpSync(realData, path.join(root, "data"), { recursive: true });
    const { slug } = parse(yaml) as { slug: string };
    file = `data/pages/${slug}.yaml`;
    expect(fs.existsSync(path.join(root, file))).toBe(false);
    fs.writeFileSync(path.join(root, file), yaml);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test("passes the content check with neither a problem nor a warning", () => {
    const report = inspectContent(path.join(root, "data"), root);
    const own = (list: typeof report.problems) => list.filter((p) => p.file === file).map(formatProblem);
    expect({ problems: own(report.problems), warnings: own(report.warnings) }).toEqual({
      problems: [],
      warnings: [],
    });
    // Nothing else of data/ goes wrong because of it (a clash, a link).
    expect(report.problems.map(formatProblem)).toEqual([]);
  });
});

describe.each(sectionKinds(realData))("the section type $type", ({ type }) => {
  const picture = pictureFile(type);

  test(`has its picture, ${picture}, small enough for the repository`, () => {
    expect(fs.existsSync(path.join(projectRoot, picture))).toBe(true);
    expect(fs.statSync(path.join(projectRoot, picture)).size).toBeLessThan(150_000);
  });

  test.each(DOCS)("is shown in %s, Adding a page", (doc) => {
    // Linked from docs/, as the doc's own images are.
    const link = path.posix.relative("docs", picture);
    expect(addingAPage(doc)).toMatch(new RegExp(`!\\[[^\\]]+\\]\\(${link.replace(/[.]/g, "\\.")}\\)`));
  });
});
