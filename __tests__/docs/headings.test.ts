/**
 * @jest-environment node
 *
 * No heading a reader knew goes missing. headings-before.txt holds every heading of README.md and the
 * docs before they were reshaped (page<TAB>heading); each must still be a heading of some page, or have
 * its line in docs/moved-headings.tsv (page, heading, now, reason), where `now` is a `page.md#anchor`
 * that resolves (from docs/, or from the root when it starts with docs/) or `dropped` with a reason.
 */
import fs from "node:fs";
import path from "node:path";
import { brokenReason, docPages, headingsOf, projectRoot } from "./support/markdown";

const MOVED = "docs/moved-headings.tsv";
const HEADER = "page\theading\tnow\treason";

/** A page as a path from the root: a moved-headings line may name it from docs/ ("server.md"). */
const fromRoot = (page: string) => (page === "README.md" || page.startsWith("docs/") ? page : `docs/${page}`);
/** A heading as its text alone, should a line keep its #s. */
const bare = (heading: string) => heading.replace(/^#+\s*/, "").trim();
const key = (page: string, heading: string) => `${fromRoot(page.trim())}\t${bare(heading)}`;

const before = fs
  .readFileSync(path.join(__dirname, "headings-before.txt"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((line) => line.split("\t") as [string, string]);

interface Moved {
  number: number;
  page: string;
  heading: string;
  now: string;
  reason: string;
  fields: number;
}
const movedLines = fs.readFileSync(path.join(projectRoot, MOVED), "utf8").split("\n");
const moved: Moved[] = movedLines.slice(1).flatMap((line, i) => {
  if (line.trim() === "") return [];
  const fields = line.split("\t");
  const [page = "", heading = "", now = "", reason = ""] = fields.map((f) => f.trim());
  return [{ number: i + 2, page, heading, now, reason, fields: fields.length }];
});

/** Why a moved-headings line does not give its heading a home, or undefined when it does. */
function problemOf({ page, heading, now, reason, fields }: Moved, known: Set<string>): string | undefined {
  if (fields !== 4) return `has ${fields} tab-separated fields, not 4 (page, heading, now, reason)`;
  if (!known.has(key(page, heading))) return `names "${page}" "${heading}", which headings-before.txt does not hold`;
  if (now === "dropped") return reason ? undefined : "is dropped without a reason";
  if (!now.includes("#")) return `gives "${now}" as where it is now: a page.md#anchor, or dropped`;
  const broken = brokenReason(now.startsWith("docs/") || now.startsWith("README.md") ? "README.md" : MOVED, now);
  return broken ? `gives ${now} as where it is now, but ${broken}` : undefined;
}

test("the snapshot holds the headings of the pages before (page<TAB>heading)", () => {
  expect(before.length).toBeGreaterThan(100);
  expect(before.filter((fields) => fields.length !== 2 || !fields[1])).toEqual([]);
});

test(`${MOVED} starts with its header`, () => {
  expect(movedLines[0]).toBe(HEADER);
});

test(`every line of ${MOVED} gives its heading a home`, () => {
  const known = new Set(before.map(([page, heading]) => key(page, heading)));
  const problems = moved.flatMap((line) => {
    const problem = problemOf(line, known);
    return problem ? [`${MOVED}:${line.number} ${problem}`] : [];
  });
  expect(problems).toEqual([]);
});

test("every heading of the pages before is a heading of a page now, or moved-headings.tsv says where it went", () => {
  const now = new Set(
    docPages().flatMap((page) =>
      headingsOf(fs.readFileSync(path.join(projectRoot, page), "utf8")).map(({ heading }) => heading),
    ),
  );
  const known = new Set(before.map(([page, heading]) => key(page, heading)));
  const accounted = new Set(
    moved.filter((line) => !problemOf(line, known)).map((line) => key(line.page, line.heading)),
  );
  const homeless = before
    .filter(([page, heading]) => !now.has(heading) && !accounted.has(key(page, heading)))
    .map(([page, heading]) => `${page}\t${heading}`);
  expect(homeless).toEqual([]);
});
