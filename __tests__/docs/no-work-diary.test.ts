/**
 * @jest-environment node
 *
 * The docs describe the project as it is, for its readers: no page speaks of the work that made it
 * (an issue's or a pull request's number, a working session, the date something was done). The prose
 * is read, not code: a command's output or an example value may hold a date.
 */
import fs from "node:fs";
import path from "node:path";
import { docPages, linesOutsideCode, projectRoot, withoutCodeSpans } from "./support/markdown";

const MONTH = "(?:January|February|March|April|May|June|July|August|September|October|November|December)";
const DIARY: Array<[string, RegExp]> = [
  ["an issue's number", /\bissues? #?\d+/gi],
  ["a pull request's number", /\b(?:PR|pull request)s? #?\d+/gi],
  ["a number as GitHub links an issue", /(?<![\w&/#])#\d+\b/g],
  // "Session" alone is the inbox's sign-in ("ends this session"): a working session is one the prose is
  // in, or starts with, or one of a series.
  ["a working session", /\b(?:in|during|from|since|before|until) (?:this|that|the last|the previous) session\b/gi],
  ["a working session", /(?:^|[.!?:;]\s+)(?:This|That|Last|The previous) session\b/g],
  ["a working session", /\b(?:earlier|later|future|previous|last) (?:work(?:ing)? )?sessions?\b/gi],
  ["a working session", /\bthis session's\b/gi],
  ["a working session", /\bsessions? \d+\b/gi],
  ["a date", /\b20\d\d-[01]\d-[0-3]\d\b/g],
  ["a date", new RegExp(`\\b\\d{1,2} ${MONTH},? 20\\d\\d\\b`, "g")],
  ["a date", new RegExp(`\\b${MONTH} \\d{1,2},? 20\\d\\d\\b`, "g")],
];

/** What a page says of the work that made it: "line: what: the words", outside code. */
const diaryIn = (markdown: string): string[] =>
  linesOutsideCode(markdown).flatMap(({ number, text }) => {
    const prose = withoutCodeSpans(text);
    return DIARY.flatMap(([what, pattern]) => [...prose.matchAll(pattern)].map((m) => `${number}: ${what}: "${m[0]}"`));
  });

test("no page of README.md or docs/ mentions an issue, a session or a date of work", () => {
  const found = docPages().flatMap((page) =>
    diaryIn(fs.readFileSync(path.join(projectRoot, page), "utf8")).map((line) => `${page}:${line}`),
  );
  expect(found).toEqual([]);
});

test.each([
  ["as issue 12 asked", 'an issue\'s number: "issue 12"'],
  ["fixed in #57.", 'a number as GitHub links an issue: "#57"'],
  ["Measured in this session on two cores", 'a working session: "in this session"'],
  ["Lighthouse (2026-11-29, 12:38 UTC)", 'a date: "2026-11-29"'],
  ["done on 29 November 2026", 'a date: "29 November 2026"'],
])("%s is named", (text, found) => {
  expect(diaryIn(text)).toEqual([`1: ${found}`]);
});

test.each([
  ["the inbox's sign-in session", "| `POST /inbox/api/sign-out` | ends this session |"],
  ["sessions, not working ones", "Revoking someone ends every session of theirs."],
  ["a date in code", "An approval's date, `2026-01-31`, in code"],
  ["a code block", "```\nreleased 2026-11-29 #57\n```"],
  ["a year and numbers", "Founded in 2022; 19 services; 1.3 KB."],
])("%s is not named", (_what, text) => {
  expect(diaryIn(text)).toEqual([]);
});
