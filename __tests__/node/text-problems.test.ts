/**
 * @jest-environment node
 */
import type { JsonSchema } from "../../src/node/content/graphql-types";
import { textProblems, type TextProblem } from "../../src/node/content/text-problems";
import { parseYaml } from "../../src/node/content/yaml-problems";

const schema: JsonSchema = {
  type: "object",
  definitions: {
    section: {
      type: "object",
      properties: {
        heading: { type: "string" },
        items: { type: "array", items: { type: "string" } },
        columns: { type: "integer" },
      },
    },
  },
  properties: {
    title: { type: "string" },
    version: { type: "string" },
    phone: { type: "string" },
    note: { type: "string" },
    optional: { type: ["string", "null"] },
    columns: { type: "integer" },
    ratio: { type: "number" },
    visible: { type: "boolean" },
    sections: { type: "array", items: { $ref: "#/definitions/section" } },
  },
};

function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

function problemsOf(text: string, against: JsonSchema = schema): TextProblem[] {
  const parsed = parseYaml(text);
  expect(parsed.problems).toEqual([]);
  return textProblems(parsed.doc, parsed.lines, text, against);
}

describe("a plain value YAML reads as another type", () => {
  test.each([
    ["1.10", "YAML reads 1.10 as a number and would publish 1.1"],
    ["2022", "YAML reads 2022 as a number, not text"],
    ["+914412345678", "YAML reads +914412345678 as a number and would publish 914412345678"],
    ["true", "YAML reads true as a yes/no value, not text"],
    ["False", "YAML reads False as a yes/no value, not text"],
    ["null", 'YAML reads null as "no value", so the field would be empty'],
    ["~", 'YAML reads ~ as "no value", so the field would be empty'],
    ["2022-01-01", "YAML reads 2022-01-01 as a date, not text"],
  ])("%s is reported with the fix", (value, reading) => {
    expect(problemsOf(yaml("title: A", `version: ${value}`))).toEqual([
      {
        line: 2,
        column: 10,
        field: "version",
        message: `${reading}: put the whole text in double quotes: "${value}"`,
      },
    ]);
  });

  test.each(['"1.10"', '"2022"', '"true"', '"null"', '"~"', "'2022-01-01'", "1.10 release", "v2022"])(
    "%s is text as typed",
    (value) => {
      expect(problemsOf(yaml(`version: ${value}`))).toEqual([]);
    },
  );

  test("an empty value is left to the schema (nothing typed, nothing lost)", () => {
    expect(problemsOf(yaml("title:", "version: x"))).toEqual([]);
  });

  test("a field that may be null takes ~", () => {
    expect(problemsOf(yaml("optional: ~"))).toEqual([]);
  });

  test("integer, number and boolean fields are left alone", () => {
    expect(problemsOf(yaml("columns: 3", "ratio: 1.10", "visible: true"))).toEqual([]);
  });

  test("a field the schema does not know is left alone", () => {
    expect(problemsOf(yaml("titel: 1.10", "extra: #1"))).toEqual([]);
  });
});

describe("a ' #' read as a comment", () => {
  test("after plain text, with the fixed line", () => {
    expect(problemsOf(yaml("note: x", "title: Project Management #1 in Chennai"))).toEqual([
      {
        line: 2,
        column: 27,
        field: "title",
        message:
          "YAML reads ' #' as the start of a comment, so \"#1 in Chennai\" would not be published: put the whole text in double quotes: " +
          'title: "Project Management #1 in Chennai"',
      },
    ]);
  });

  test("in curly quotes, the advice puts the text in straight quotes instead of keeping them", () => {
    expect(problemsOf(yaml("title: \u201cProject Management #1 in Chennai\u201d"))).toEqual([
      {
        line: 1,
        column: 28,
        field: "title",
        message:
          "YAML reads ' #' as the start of a comment, so \"#1 in Chennai\u201d\" would not be published: put the whole text in double quotes: " +
          'title: "Project Management #1 in Chennai"',
      },
    ]);
  });

  test("right after the colon, where the whole value would be lost", () => {
    expect(problemsOf(yaml("title: #1 in Chennai"))).toEqual([
      expect.objectContaining({
        line: 1,
        column: 8,
        message: expect.stringContaining('so "#1 in Chennai" would not be published'),
      }),
    ]);
  });

  test("comments on their own lines, after quoted text and after numbers are fine", () => {
    const text = yaml(
      "# The page title",
      "title: Clinical research",
      "  # more about it",
      'note: "Ranked #1" # checked in 2024',
      "columns: 3 # two on phones",
      "sections:",
      "  - heading: A",
      "    columns: 2 # one on phones",
    );
    expect(problemsOf(text)).toEqual([]);
  });

  test("a comment after a number in a field that may hold text or a number is fine", () => {
    const either: JsonSchema = { type: "object", properties: { size: { type: ["string", "number"] } } };
    expect(problemsOf(yaml("size: 3 # metres"), either)).toEqual([]);
  });

  test("a # without a space before it is text", () => {
    expect(problemsOf(yaml("title: C# training"))).toEqual([]);
  });
});

describe("a tab inside text", () => {
  test("in plain and in quoted text", () => {
    expect(problemsOf(yaml("title: Clinical\tresearch", 'note: "a\tb"'))).toEqual([
      { line: 1, column: 16, field: "title", message: "contains a tab character: replace it with a space" },
      { line: 2, column: 9, field: "note", message: "contains a tab character: replace it with a space" },
    ]);
  });

  test("\\t written in double quotes is not a typed tab", () => {
    expect(problemsOf(yaml('note: "a\\tb"'))).toEqual([]);
  });
});

describe("nested fields", () => {
  const text = yaml(
    "sections:",
    "  - heading: Study design",
    "    items:",
    "      - Protocols",
    "  - heading: 2022",
    "    columns: 3",
    "    items:",
    "      - Monitoring",
    "      - 1.10",
    "      - Design: Planning",
    "      - [Draft] Plan",
  );

  test("are followed through $ref and lists, positions counted from 1", () => {
    const found = problemsOf(text.replace("      - [Draft] Plan\n", ""));
    expect(found.map(({ line, column, field }) => ({ line, column, field }))).toEqual([
      { line: 5, column: 14, field: "sections[2].heading" },
      { line: 9, column: 9, field: "sections[2].items[2]" },
      { line: 10, column: 9, field: "sections[2].items[3]" },
    ]);
    expect(found[2]!.message).toBe(
      "text containing ': ' must be in double quotes, or YAML takes the part before ': ' for a field name: - \"Design: Planning\"",
    );
  });

  test("a list written where text belongs", () => {
    const found = problemsOf(yaml("sections:", "  - items:", "      - [Draft, Plan]"));
    expect(found).toEqual([
      {
        line: 3,
        column: 9,
        field: "sections[1].items[1]",
        message:
          'text starting with [ must be in double quotes, or YAML reads [ as the start of a list: - "[Draft, Plan]"',
      },
    ]);
  });

  test("a list file's entries are numbered too", () => {
    const list: JsonSchema = { type: "array", items: { type: "object", properties: { title: { type: "string" } } } };
    expect(problemsOf(yaml("- title: A", "- title: 2022"), list)).toEqual([
      expect.objectContaining({ line: 2, column: 10, field: "[2].title" }),
    ]);
  });
});
