/**
 * @jest-environment node
 *
 * The content check of an added page's sections (data/pages/<slug>.yaml, a typed list): a page with
 * one section of each type passes, and each kind of mistake gives one message, with the file, the
 * line and the section, never one for every type a section could have been.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatProblem } from "../../src/node/content/problems";
import { checkFileText, inspectContent } from "../../src/node/content/validate";
import { content } from "../support/content";

const realData = path.resolve(__dirname, "../../data");
const FILE = "pages/careers.yaml";

/** One section of every type; the picture is any photograph the site already has. */
const PAGE = `slug: careers
title: Careers
description: Work with us on clinical trials in Chennai.
sections:
  - type: text
    body: |
      ## Why join us

      We **train** every new colleague.
  - type: picture-with-text
    image: ./images/picture.jpg
    alt: Colleagues at work
    side: right
    body: A text beside the picture.
  - type: cards
    heading: Teams
    cards:
      - title: Data management
        text: Clean data, on time.
        link: /contact
      - title: Monitoring
        text: On site and remote.
        image: ./images/picture.jpg
        imageAlt: A monitor at work
  - type: call-to-action
    heading: Interested?
    text: Send us your CV.
    buttonLabel: Write to us
  - type: questions
    items:
      - question: Do you hire graduates?
        answer: Yes, every year.
  - type: slideshow
    label: Our offices
    slides:
      - image: ./images/picture.jpg
        alt: The office
  - type: contact-strip
`;

let dataDir: string;

beforeAll(() => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-pages-"));
  fs.cpSync(realData, path.join(root, "data"), { recursive: true });
  dataDir = path.join(root, "data");
  fs.mkdirSync(path.join(dataDir, "pages/images"), { recursive: true });
  const photo = path.resolve(realData, "home", content.home.slides[0]!.image);
  fs.copyFileSync(photo, path.join(dataDir, "pages/images/picture.jpg"));
});

afterAll(() => {
  fs.rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

const problemsOf = (text: string) => checkFileText(dataDir, FILE, text).map(formatProblem);

/** The 1-based line of the first line of `text` that contains `needle`. */
const lineOf = (text: string, needle: string) => text.split("\n").findIndex((line) => line.includes(needle)) + 1;

test("a page with one section of each type passes the whole check", () => {
  expect(problemsOf(PAGE)).toEqual([]);
  fs.writeFileSync(path.join(dataDir, FILE), PAGE);
  try {
    expect(inspectContent(dataDir).problems.map(formatProblem)).toEqual([]);
  } finally {
    fs.rmSync(path.join(dataDir, FILE));
  }
});

// [mistake, the page with it, the text on the line reported, the field, the message]
test.each<[string, string, string, string, RegExp]>([
  [
    "an unknown type close to a known one",
    PAGE.replace("type: text", "type: txt"),
    "type: txt",
    "sections[1].type",
    /^"txt" is not a known type of section: did you mean "text"\? \(the types of section: text, picture-with-text, cards, call-to-action, questions, slideshow, contact-strip\)$/,
  ],
  [
    "an unknown type like none",
    PAGE.replace("type: contact-strip", "type: banner"),
    "type: banner",
    "sections[7].type",
    /^"banner" is not a known type of section: write one of text, picture-with-text, cards, call-to-action, questions, slideshow, contact-strip$/,
  ],
  [
    "a section without its type",
    PAGE.replace("  - type: call-to-action\n    heading", "  - heading"),
    "- heading: Interested?",
    "sections[4].type",
    /^is missing: each section starts with its type, e.g. type: text \(the types of section: text, /,
  ],
  [
    "a misspelt type field",
    PAGE.replace("  - type: slideshow", "  - tpye: slideshow"),
    "tpye: slideshow",
    "sections[6].type",
    /^is missing: "tpye" looks like it, misspelt: rename tpye to type /,
  ],
  [
    "a required field missing from a section",
    PAGE.replace("    buttonLabel: Write to us\n", ""),
    "type: call-to-action",
    "sections[4].buttonLabel",
    /^is missing: section 4 is a "call-to-action" section, which needs it$/,
  ],
  [
    "a required field missing inside a section's list",
    PAGE.replace("        answer: Yes, every year.\n", ""),
    "question: Do you hire graduates?",
    "sections[5].items[1].answer",
    /^is missing \(it is required\), in section 5 \(a "questions" section\)$/,
  ],
  [
    "a card's picture without its description",
    PAGE.replace("        imageAlt: A monitor at work\n", ""),
    "title: Monitoring",
    "sections[3].cards[2].imageAlt",
    /^is missing: it is required when image is given, in section 3 \(a "cards" section\)$/,
  ],
  [
    "a field of another type of section",
    PAGE.replace("    side: right\n", "    label: Pictures\n"),
    "label: Pictures",
    "sections[2].label",
    /^is not a known field: check its spelling \(known fields here: type, image, alt, caption, side, heading, body\)$/,
  ],
  [
    "a value outside a choice",
    PAGE.replace("side: right", "side: middle"),
    "side: middle",
    "sections[2].side",
    /^"middle" is not allowed here: write one of left, right$/,
  ],
  [
    "one card",
    PAGE.replace(/ {6}- title: Monitoring\n(?: {8}.*\n)+/, ""),
    // Where the list starts: its first card.
    "- title: Data management",
    "sections[3].cards",
    /^must have at least 2 items \(found 1\)$/,
  ],
  [
    "a banner without its description",
    PAGE.replace("sections:\n", "banner: ./images/picture.jpg\nsections:\n"),
    "slug: careers",
    "bannerAlt",
    /^is missing: it is required when banner is given$/,
  ],
])("%s: one message, with the file, the line and the section", (_, text, onLine, field, message) => {
  const problems = checkFileText(dataDir, FILE, text);
  expect(problems.map(formatProblem)).toEqual([expect.stringContaining(`field "${field}"`)]);
  const [problem] = problems;
  expect(problem).toMatchObject({ file: `data/${FILE}`, line: lineOf(text, onLine), field });
  expect(problem!.message).toMatch(message);
});

test("the picture width rule reaches inside sections: a badge as the picture beside a text", () => {
  const badge = path.resolve(realData, "approvals", content.approvals[0]!.image);
  const name = `badge${path.extname(badge)}`;
  fs.copyFileSync(badge, path.join(dataDir, "pages/images", name));
  const text = PAGE.replace(
    "image: ./images/picture.jpg\n    alt: Colleagues",
    `image: ./images/${name}\n    alt: Colleagues`,
  );
  fs.writeFileSync(path.join(dataDir, FILE), text);
  try {
    const { problems, warnings } = inspectContent(dataDir);
    expect(problems.map(formatProblem)).toEqual([]);
    expect(warnings.filter((w) => w.field?.startsWith("sections[2]"))).toEqual([
      expect.objectContaining({ field: "sections[2].image", message: expect.stringMatching(/1200/) }),
    ]);
  } finally {
    fs.rmSync(path.join(dataDir, FILE));
  }
});

test("text checks reach inside sections: a number where a section's text goes", () => {
  const text = PAGE.replace("buttonLabel: Write to us", "buttonLabel: 1.10");
  expect(problemsOf(text)).toEqual([
    expect.stringMatching(/:\d+:\d+: field "sections\[4\]\.buttonLabel": YAML reads 1\.10 as a number/),
  ]);
});
