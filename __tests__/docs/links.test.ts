/**
 * @jest-environment node
 *
 * Every relative link of README.md and docs/ leads somewhere: the file exists, and an anchor is one a
 * heading of that page makes by GitHub's rule (support/markdown.ts). Pages move and headings are
 * renamed; a reader following a link must not land on nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { anchorsOf, brokenReason, docPages, githubSlug, projectRoot, relativeLinksOf } from "./support/markdown";

test("every relative link and anchor of README.md and docs/**/*.md resolves", () => {
  const pages = docPages();
  expect(pages).toContain("docs/README.md");
  const broken = pages.flatMap((page) =>
    relativeLinksOf(fs.readFileSync(path.join(projectRoot, page), "utf8")).flatMap(({ number, target }) => {
      const reason = brokenReason(page, target);
      return reason ? [`${page}:${number}: (${target}): ${reason}`] : [];
    }),
  );
  expect(broken).toEqual([]);
});

describe("GitHub's anchors", () => {
  test.each([
    ["What `npm ci` prints", "what-npm-ci-prints"],
    ["1. Static host or CDN, with the function", "1-static-host-or-cdn-with-the-function"],
    ["The inbox (server side)", "the-inbox-server-side"],
    ["Node.js 22", "nodejs-22"],
    ["The enquiry inbox: the operator's part", "the-enquiry-inbox-the-operators-part"],
    ["A — B", "a--b"],
    ["`SMTP_URL` and [mail](x.md)", "smtp_url-and-mail"],
  ])("%s is #%s", (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  test("a repeated heading's anchor is numbered, and a heading in a code block makes none", () => {
    const anchors = anchorsOf("# A\n\n## Tests\n\n```sh\n# Tests\n## Code\n```\n\n## Tests\n");
    expect([...anchors]).toEqual(["a", "tests", "tests-1"]);
  });
});

test("a broken link is named with its page, its line and why", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-docs-links-"));
  try {
    fs.mkdirSync(path.join(root, "docs"));
    fs.writeFileSync(path.join(root, "README.md"), "# R\n\n[ok](docs/a.md#there) [gone](docs/b.md)\n");
    fs.writeFileSync(
      path.join(root, "docs/a.md"),
      "# A\n\n## There\n\n[no](#here) `[code](nowhere.md)` \\[typed\\](nowhere.md)\n",
    );
    const found = docPages(root).flatMap((page) =>
      relativeLinksOf(fs.readFileSync(path.join(root, page), "utf8")).flatMap(({ number, target }) => {
        const reason = brokenReason(page, target, root);
        return reason ? [`${page}:${number}: (${target}): ${reason}`] : [];
      }),
    );
    expect(found).toEqual([
      "README.md:3: (docs/b.md): no file docs/b.md",
      "docs/a.md:5: (#here): no heading of docs/a.md makes #here",
    ]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
