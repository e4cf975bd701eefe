/**
 * @jest-environment node
 *
 * A character that is not what it looks like (invisible, a letter of another alphabet, a look-alike of
 * YAML's colon, dash, comment mark or quotes) is named as such, at its line and column, once: not
 * advice about a name or a line that reads right. Text of other scripts and typography stay silent.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatProblem } from "../../src/node/content/problems";
import { inspectContent } from "../../src/node/content/validate";
import { parseYaml, type YamlProblem } from "../../src/node/content/yaml-problems";
import { content } from "../support/content";

const yaml = (...lines: string[]) => `${lines.join("\n")}\n`;
const problemsOf = (text: string): YamlProblem[] => parseYaml(text).problems;

describe("named where it stands, with what to do", () => {
  test.each([
    [
      "a zero-width joiner in a field name",
      yaml("ti\u200dtle: A"),
      1,
      3,
      'line 1: the field name "title" has an invisible character in it, a zero-width joiner (U+200D), so to the site it is another name: delete that character (or delete the name and type it again)',
    ],
    [
      "a byte order mark in the middle of a field name",
      yaml("title: A", "head\ufeffing: B"),
      2,
      5,
      'line 2: the field name "heading" has an invisible character in it, a zero-width no-break space (byte order mark) (U+FEFF), so to the site it is another name: delete that character (or delete the name and type it again)',
    ],
    [
      "a Cyrillic letter in a field name",
      yaml("slug: a", "t\u0456tle: A"),
      2,
      2,
      'line 2: the field name "t\u0456tle" has a Cyrillic letter "\u0456" (U+0456) that looks like the Latin "i" but is another letter to the site: delete it and type i again',
    ],
    [
      "a fullwidth colon in place of the colon",
      yaml("slug: a", "title\uff1a Project Management"),
      2,
      6,
      'line 2: after "title" comes a fullwidth colon "\uff1a" (U+FF1A), which looks like a colon but is not one to YAML: replace it with a plain colon :',
    ],
    [
      "a modifier letter colon in place of a list entry's colon",
      yaml("sections:", "  - heading\ua789 Study design"),
      2,
      12,
      'line 2: after "heading" comes a modifier letter colon "\ua789" (U+A789), which looks like a colon but is not one to YAML: replace it with a plain colon :',
    ],
    [
      "an en dash in place of the first list dash",
      yaml("items:", "  \u2013 Protocol writing", "  - Sample size"),
      2,
      3,
      'line 2 starts with an en dash "\u2013" (U+2013) where a list entry\'s dash goes, which looks like one but is not one to YAML: replace it with a plain hyphen -',
    ],
    [
      "a minus sign in place of a later list dash",
      yaml("items:", "  - Protocol writing", "  \u2212 Sample size"),
      3,
      3,
      'line 3 starts with a minus sign "\u2212" (U+2212) where a list entry\'s dash goes, which looks like one but is not one to YAML: replace it with a plain hyphen -',
    ],
    [
      "a soft hyphen in the indentation",
      yaml("items:", "  \u00ad- Protocol writing"),
      2,
      3,
      "line 2 starts with an invisible character, a soft hyphen (U+00AD): delete it",
    ],
    [
      "a zero-width non-joiner at the end of a line",
      yaml("sections:\u200c", "  - heading: B"),
      1,
      10,
      "line 1 ends with an invisible character, a zero-width non-joiner (U+200C): delete it",
    ],
    [
      "a narrow non-breaking space between a field name and its colon",
      yaml("title\u202f: Project Management"),
      1,
      6,
      'line 1: the field name "title" has a narrow non-breaking space (U+202F) in it, which looks like a space but is not one to YAML: delete it',
    ],
    [
      "a fullwidth number sign in place of a comment's #",
      yaml("slug: a", "\uff03 a note", "order: 30"),
      2,
      1,
      'line 2: a fullwidth number sign "\uff03" (U+FF03) looks like # but does not start a comment for YAML: replace it with a plain #',
    ],
    [
      "a fullwidth number sign after a value",
      yaml("order: 30 \uff03 the third card"),
      1,
      11,
      'line 1: a fullwidth number sign "\uff03" (U+FF03) looks like # but does not start a comment for YAML: replace it with a plain #',
    ],
    [
      "curly quotes around a field name",
      yaml("\u201ctitle\u201d: Project Management"),
      1,
      1,
      "line 1: the field name \u201ctitle\u201d is in quotes that are not YAML's \" and ' (\u201c \u201d), so YAML reads them as part of the name: remove them: title:",
    ],
    [
      "primes around a text that needs quotes: the advice has straight ones instead",
      yaml("title: \u2033Study Design: Planning\u2033"),
      1,
      8,
      "text containing ': ' must be in double quotes, or YAML takes the part before ': ' for a field name: title: \"Study Design: Planning\"",
    ],
  ])("%s", (_, text, line, column, message) => {
    expect(problemsOf(text)).toEqual([{ line, column, message }]);
  });
});

describe("text of its own stays silent", () => {
  test.each([
    ["Tamil", yaml("heading: மருத்துவ ஆராய்ச்சி", "items:", "  - சென்னை")],
    [
      "an en dash inside a text",
      yaml('heading: "Cyrus \u2013 Clinical Research Organisation"', "title: Phase II\u2013IV"),
    ],
    ["a wrapped text going on with an en dash", yaml("body: We register trials with the Registry", "  \u2013 India.")],
    [
      "curly apostrophes and quotes inside a text",
      yaml("body: The sponsor\u2019s \u201csingle point\u201d of contact"),
    ],
    ["a non-breaking space between words", yaml("title: 10\u00a0mg doses")],
    ["a Malayalam word ending with a joiner", yaml("heading: \u0d05\u0d35\u0d28\u0d4d\u200d here")],
    ["an emoji sequence", yaml("heading: Our lab \u{1f469}\u200d\u{1f52c}")],
    ["a fullwidth colon in Chinese text", yaml("heading: \u65f6\u95f4\uff1a10\u70b9")],
    ["a number sign inside a text", yaml("title: We are \uff031")],
    ["a byte order mark opening the file", "\ufefftitle: A\n"],
  ])("%s", (_, text) => {
    expect(problemsOf(text)).toEqual([]);
  });
});

describe("in the whole check: one message, no advice about what reads right", () => {
  const service = content.services[0]!;
  const file = `services/${service.slug}.yaml`;
  let dataDir: string;
  beforeEach(() => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-chars-")), "data");
    fs.cpSync(path.resolve(__dirname, "../../data"), dataDir, { recursive: true });
  });
  afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  /** Replaces the line matching `line`, and gives its 1-based number. */
  function editLine(line: RegExp, replace: (text: string) => string): number {
    const abs = path.join(dataDir, file);
    const lines = fs.readFileSync(abs, "utf8").split("\n");
    const at = lines.findIndex((text) => line.test(text));
    lines[at] = replace(lines[at]!);
    fs.writeFileSync(abs, lines.join("\n"));
    return at + 1;
  }
  const report = () => {
    const { problems, warnings } = inspectContent(dataDir);
    return { problems: problems.map(formatProblem), warnings: warnings.map(formatProblem) };
  };

  test('a Cyrillic "і" in a field name: not "did you mean title?"', () => {
    const line = editLine(/^title: /, (text) => text.replace(/^title/, "t\u0456tle"));
    expect(report()).toEqual({
      problems: [
        `data/${file}:${line}:2: line ${line}: the field name "t\u0456tle" has a Cyrillic letter "\u0456" (U+0456) that looks like the Latin "i" but is another letter to the site: delete it and type i again`,
      ],
      warnings: [],
    });
  });

  test.each([
    [
      "a Cyrillic letter",
      "\u043e",
      'a Cyrillic letter "\u043e" (U+043E) that looks like the Latin "o" but is another letter to the site: delete it and type o again',
    ],
    [
      "a zero-width space",
      "\u200b",
      "an invisible character in it, a zero-width space (U+200B): delete that character (or delete the word and type it again)",
    ],
  ])("%s in the slug: one problem, not a file name or a dropdown entry to change", (_, char, says) => {
    const at = service.slug.indexOf("o") + 1;
    const slug = `${service.slug.slice(0, at - 1)}${char}${service.slug.slice(char === "\u200b" ? at - 1 : at)}`;
    const line = editLine(/^slug: /, () => `slug: ${slug}`);
    const shown = char === "\u200b" ? service.slug : slug;
    expect(report()).toEqual({
      problems: [`data/${file}:${line}:${6 + at}: field "slug": line ${line}: "${shown}" has ${says}`],
      warnings: [],
    });
  });

  test.each([
    ["a zero-width space inside a word", (title: string) => title.replace(/^(\w)/, "$1\u200b"), 9],
    ["a right-to-left override opening it", (title: string) => `\u202e${title}`, 8],
  ])("%s in a title: a warning at that character, and the check passes", (_, change, column) => {
    const line = editLine(/^title: /, (text) => `title: ${change(text.slice("title: ".length))}`);
    const { problems, warnings } = report();
    expect(problems).toEqual([]);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^data/${file}:${line}:${column}: field "title": line ${line}: ".+" has an invisible character in it, `,
        ),
      ),
    ]);
  });

  test("a soft hyphen in a text of several lines, and a non-breaking space ending a line: a warning each", () => {
    const abs = path.join(dataDir, file);
    const lines = fs.readFileSync(abs, "utf8").split("\n");
    const body = lines.findIndex((text) => /^description: >-$/.test(text)) + 2;
    lines[body - 1] = lines[body - 1]!.replace(/(\w{4})(\w{3})/, "$1\u00ad$2");
    const column = lines[body - 1]!.indexOf("\u00ad") + 1;
    const end = lines.findIndex((text) => /^menuLabel: /.test(text)) + 1;
    lines[end - 1] += "\u00a0";
    fs.writeFileSync(abs, lines.join("\n"));
    expect(report()).toEqual({
      problems: [],
      warnings: [
        `data/${file}:${end}:${lines[end - 1]!.length}: field "menuLabel": line ${end} ends with a non-breaking space (U+00A0), which does nothing there: delete it`,
        expect.stringMatching(
          new RegExp(
            `^data/${file}:${body}:${column}: field "description": line ${body}: ".+" has an invisible character in it, a soft hyphen \\(U\\+00AD\\): delete that character`,
          ),
        ),
      ],
    });
  });

  test.each([
    ["slug", () => service.slug],
    ["order", () => String(service.order)],
  ])("the %s in curly quotes: one problem, naming the quotes", (field, value) => {
    const line = editLine(new RegExp(`^${field}: `), () => `${field}: \u201c${value()}\u201d`);
    expect(report()).toEqual({
      problems: [
        `data/${file}:${line}:${field.length + 3}: field "${field}": is in quotes that are not YAML's " and ' (\u201c \u201d), so they are part of the value: remove them: ${field}: ${value()}`,
      ],
      warnings: [],
    });
  });
});
