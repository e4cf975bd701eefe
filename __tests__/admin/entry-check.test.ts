/**
 * @jest-environment node
 *
 * The studio's check before a save (admin/src/entry-check.ts) and the content check hold together: for
 * an entry's text, the studio gives exactly the check's messages for that file (checkFileText), over the
 * same other files and the same pictures (the studio's media listing made from data/'s files).
 */
import fs from "node:fs";
import path from "node:path";
import { entryProblems, fieldPath, mediaAccess, type EntryText } from "../../admin/src/entry-check";
import { sourceOfFile } from "../../admin/src/content-sources";
import { contentSourcesOf } from "../../admin/scripts/build";
import { contentFiles, filesOf } from "../../src/node/content/content-files";
import { checkFileText } from "../../src/node/content/validate";

const root = path.resolve(__dirname, "../..");
const dataDir = path.join(root, "data");
const sources = contentSourcesOf(dataDir);
const read = (file: string) => fs.readFileSync(path.join(dataDir, file), "utf8");

/** Every content file of data/ as the studio reads them, and every file under data/ as its media. */
const others: EntryText[] = contentFiles.flatMap((s) =>
  filesOf(dataDir, s).map((f) => ({ rel: `data/${f}`, source: sourceOfFile(sources, `data/${f}`)!, text: read(f) })),
);
const media = mediaAccess(
  fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join("/")),
);

const studioSays = (file: string, text: string) =>
  entryProblems({ rel: `data/${file}`, source: sourceOfFile(sources, `data/${file}`)!, text }, others, media).map(
    (p) => [p.field, p.message],
  );
const checkSays = (file: string, text: string) => checkFileText(dataDir, file, text).map((p) => [p.field, p.message]);

const page = (body: string, extra = "") =>
  `slug: careers\ntitle: Careers\ndescription: Work with us.\n${extra}sections:\n  - type: text\n    body: |\n${body
    .split("\n")
    .map((l) => (l ? `      ${l}` : ""))
    .join("\n")}\n`;

const cases: Array<[string, string, string]> = [
  [
    "a javascript: link and a <script>",
    "pages/careers.yaml",
    page("Click [here](javascript:alert(1)).\n\n<script>alert(2)</script>\n"),
  ],
  [
    "a link to a page that is not there",
    "pages/careers.yaml",
    page("See [our careers](/career) and [design](/services/study-desing).\n"),
  ],
  ["a reserved slug", "pages/admin.yaml", page("Text.\n").replace("slug: careers", "slug: admin")],
  ["a level 1 heading and a table", "pages/careers.yaml", page("# Big\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")],
  [
    "an unknown field and a missing one",
    "pages/careers.yaml",
    page("Text.\n").replace("title: Careers\n", "titel: Careers\n"),
  ],
  [
    "a non-breaking space and a look-alike letter",
    "pages/careers.yaml",
    page("Text.\n").replace("title: Careers", "title: Care\u00a0ers").replace("slug: careers", "slug: c\u0430reers"),
  ],
  [
    "a menu link with a slip",
    "navigation/navigation.yaml",
    read("navigation/navigation.yaml").replace('to: "/home"', 'to: "/career"'),
  ],
  [
    "a Services menu naming no service",
    "navigation/navigation.yaml",
    read("navigation/navigation.yaml").replace("- study-design", "- study-desing"),
  ],
  [
    "a picture's path in other capitals",
    "services/study-design.yaml",
    read("services/study-design.yaml").replace("./images/study-design-banner.jpg", "./images/Study-Design-Banner.jpg"),
  ],
  [
    "a picture's ending in capitals",
    "services/study-design.yaml",
    read("services/study-design.yaml").replace("./images/study-design-banner.jpg", "./images/study-design-banner.JPG"),
  ],
  [
    "a picture that is not there",
    "services/study-design.yaml",
    read("services/study-design.yaml").replace("./images/study-design-banner.jpg", "./images/nothing-like-it.jpg"),
  ],
  [
    "a gallery naming no approval",
    "services/regulatory-approvals.yaml",
    read("services/regulatory-approvals.yaml").replace(", ema,", ", emma,"),
  ],
  ["YAML that does not read", "pages/careers.yaml", "slug: careers\ntitle: [Careers\n"],
];

test.each(cases)("%s: the studio says what the check says, word for word", (_name, file, text) => {
  const check = checkSays(file, text);
  expect(check.length).toBeGreaterThan(0);
  expect(studioSays(file, text)).toEqual(check);
});

test("a file the check passes, the studio passes", () => {
  for (const file of ["navigation/navigation.yaml", "services/study-design.yaml", "pages/example.yaml"]) {
    expect(checkSays(file, read(file))).toEqual([]);
    expect(studioSays(file, read(file))).toEqual([]);
  }
});

test("the check's field, counted from 1, is the path into the data", () => {
  expect(fieldPath("sections[2].items[1].answer")).toEqual(["sections", 1, "items", 0, "answer"]);
  expect(fieldPath("main[7].to")).toEqual(["main", 6, "to"]);
});
