/**
 * @jest-environment node
 *
 * What the content check knows of an added page beyond its schema (src/node/content/page-checks.ts):
 * a slug that a fixed page or the server already answers, Markdown outside the subset, a link to no
 * page of the site, and a link from the live site (a ready page, the menu) to a page still being
 * written. Each is one message with the file, the line and the field, saying what to do.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatProblem } from "../../src/node/content/problems";
import { checkFileText } from "../../src/node/content/validate";
import { content } from "../support/content";

const realData = path.resolve(__dirname, "../../data");

const page = (slug: string, sections: string, extra = "") => `slug: ${slug}
title: A page
description: A page of the tests.
${extra}sections:
${sections}`;

const TEXT = (body: string) => `  - type: text
    body: |
${body
  .split("\n")
  .map((line) => (line ? `      ${line}` : ""))
  .join("\n")}
`;

let dataDir: string;

beforeAll(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-page-links-"));
  fs.cpSync(realData, path.join(root, "data"), { recursive: true });
  dataDir = path.join(root, "data");
  // A page still being written, which the live site does not have.
  fs.writeFileSync(
    path.join(dataDir, "pages/in-writing.yaml"),
    page("in-writing", TEXT("Soon."), "inProgress: true\n"),
  );
});

afterAll(() => {
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((line) => line.includes(needle)) + 1;
const service = content.services[0]!;

// [case, file, its text, the text on the line reported, the field, the message]
test.each<[string, string, string, string, string, RegExp]>([
  [
    "a slug of a fixed page",
    "pages/aboutus.yaml",
    page("aboutus", TEXT("About.")),
    "slug: aboutus",
    "slug",
    /^the slug "aboutus" cannot be used for an added page: the page \/aboutus is one of the site's fixed pages, whose words are in data\/about\/about\.yaml\. Choose another slug/,
  ],
  [
    "a slug the server answers",
    "pages/admin.yaml",
    page("admin", TEXT("Admin.")),
    "slug: admin",
    "slug",
    /^the slug "admin" cannot be used for an added page: the site uses \/admin for the editing studio\./,
  ],
  [
    "a level 1 heading in a text",
    "pages/careers.yaml",
    page("careers", TEXT("Intro.\n\n# Big title")),
    "# Big title",
    "sections[1].body",
    /level 1 heading/,
  ],
  [
    "a javascript: link",
    "pages/careers.yaml",
    page("careers", TEXT("Click [here](javascript:alert(1)).")),
    "Click [here]",
    "sections[1].body",
    /javascript:/,
  ],
  [
    "a Markdown link to no page",
    "pages/careers.yaml",
    page("careers", TEXT("See\n[our team](/our-team).")),
    "[our team]",
    "sections[1].body",
    /^links to "\/our-team", but no page of the site has that address\. Correct the address, or add the page as data\/pages\/our-team\.yaml, or remove the link$/,
  ],
  [
    "a card's link misspelt",
    "pages/careers.yaml",
    page(
      "careers",
      `  - type: cards
    cards:
      - title: One
        text: First.
        link: /contat
      - title: Two
        text: Second.
        link: /services/${service.slug}
`,
    ),
    "link: /contat",
    "sections[1].cards[1].link",
    /^links to "\/contat", but no page of the site has that address: did you mean "\/contact"\?$/,
  ],
  [
    "a ready page's button to a page still being written",
    "pages/careers.yaml",
    page(
      "careers",
      `  - type: call-to-action
    heading: Soon
    text: A page in writing.
    buttonLabel: Read it
    buttonTo: /in-writing
`,
    ),
    "buttonTo: /in-writing",
    "sections[1].buttonTo",
    /^links to "\/in-writing", a page still being written \(inProgress: true in data\/pages\/in-writing\.yaml\), which the live site does not have\. Remove the link until that page is ready, or set its inProgress to false$/,
  ],
])("%s: one message with the file, the line and the field", (_, file, text, onLine, field, message) => {
  const problems = checkFileText(dataDir, file, text);
  expect(problems.map(formatProblem)).toEqual([expect.stringContaining(`field "${field}"`)]);
  expect(problems[0]).toMatchObject({ file: `data/${file}`, line: lineOf(text, onLine), field });
  expect(problems[0]!.message).toMatch(message);
});

test("a page still being written may link to another one", () => {
  const text = page("drafts", TEXT("See [the other](/in-writing)."), "inProgress: true\n");
  expect(checkFileText(dataDir, "pages/drafts.yaml", text).map(formatProblem)).toEqual([]);
});

test("the menu may name an added page, and is refused a path no page has, or one still being written", () => {
  const file = "navigation/navigation.yaml";
  const nav = fs.readFileSync(path.join(dataDir, file), "utf8");
  const withEntry = (to: string) => nav.replace(/^main:\n/m, `main:\n  - label: "Extra"\n    to: "${to}"\n`);
  fs.writeFileSync(path.join(dataDir, "pages/careers.yaml"), page("careers", TEXT("Work with us.")));
  try {
    expect(checkFileText(dataDir, file, withEntry("/careers")).map(formatProblem)).toEqual([]);
    const missing = checkFileText(dataDir, file, withEntry("/carers"));
    expect(missing.map((p) => [p.field, p.line, p.message])).toEqual([
      [
        "main[1].to",
        2 + lineOf(nav, "main:"),
        'links to "/carers", but no page of the site has that address: did you mean "/careers"?',
      ],
    ]);
    const writing = checkFileText(dataDir, file, withEntry("/in-writing"));
    expect(writing.map((p) => p.message)).toEqual([expect.stringMatching(/a page still being written/)]);
  } finally {
    fs.rmSync(path.join(dataDir, "pages/careers.yaml"));
  }
});
