/**
 * @jest-environment node
 */
import { FALLBACK_MESSAGE, parseYaml, type YamlProblem } from "../../src/node/content/yaml-problems";

/** Lines joined with "\n" and a final newline, so a test reads like the file. */
function yaml(...lines: string[]): string {
  return `${lines.join("\n")}\n`;
}

function problemsOf(text: string): YamlProblem[] {
  return parseYaml(text).problems;
}

/** What the parser says in its own words, which an editor must never see. */
const JARGON = [
  "    at ",
  "Error:",
  "implicit map key",
  "compact mapping",
  "block sequence",
  "flow",
  "scalar",
  "Unresolved alias",
  "YAMLParseError",
];

function expectPlain(problems: YamlProblem[]): void {
  for (const { message } of problems) {
    for (const word of JARGON) expect(message.toLowerCase()).not.toContain(word.toLowerCase());
  }
}

describe("a valid file", () => {
  test("has no problems and gives the data", () => {
    const parsed = parseYaml(
      yaml(
        "title: Clinical research in Chennai",
        "columns: 3 # two on phones",
        "sections:",
        "  - heading: Study design",
        "    items:",
        "      - Protocol writing",
        '      - "Sample size: power"',
        "  - heading: Data management",
        "    items: []",
      ),
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.data).toEqual({
      title: "Clinical research in Chennai",
      columns: 3,
      sections: [
        { heading: "Study design", items: ["Protocol writing", "Sample size: power"] },
        { heading: "Data management", items: [] },
      ],
    });
  });

  test("keeps a date as a date (the timestamp tag) for the text checks to report", () => {
    expect(parseYaml("founded: 2001-05-01\n").data).toEqual({ founded: new Date("2001-05-01T00:00:00Z") });
  });

  test("an empty file is no problem", () => {
    expect(parseYaml("")).toMatchObject({ problems: [], data: null });
  });
});

describe("tabs used for indentation", () => {
  test("give one problem at the first such line, listing the others", () => {
    const text = yaml("sections:", "\t- heading: A", "\t  body: x", "  - heading: B", "\t- heading: C", "\t\tbody: y");
    const problems = problemsOf(text);
    expect(problems).toEqual([
      {
        line: 2,
        column: 1,
        message: "line 2 is indented with a tab: use spaces, not tabs, to indent (also lines 3, 5 and 6)",
      },
    ]);
  });

  test("a tab after spaces counts, and the column is the tab's", () => {
    expect(problemsOf(yaml("a:", "  b: 1", "  \tc: 2"))).toEqual([
      { line: 3, column: 3, message: "line 3 is indented with a tab: use spaces, not tabs, to indent" },
    ]);
  });

  test("1,000 tab-indented lines give one problem, and quickly", () => {
    const text = `items:\n${Array.from({ length: 1000 }, (_, i) => `\t- Item ${i + 1}`).join("\n")}\n`;
    const started = Date.now();
    const problems = problemsOf(text);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 2, column: 1 });
    expect(problems[0]!.message).toContain("use spaces, not tabs, to indent");
    expect(problems[0]!.message).toContain("(also lines 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 and 989 more)");
  });

  test("a tab inside a block of text that YAML accepts is not an indentation problem", () => {
    expect(problemsOf(yaml("body: |", "  first", "  \tsecond", "title: x"))).toEqual([]);
  });

  test("a syntax error before the first tab is reported too, errors after it are not", () => {
    const problems = problemsOf(yaml("heading: Study Design: Planning", "a:", "\tb: 1", "c: [unclosed"));
    expect(problems.map((p) => p.line)).toEqual([1, 3]);
    expect(problems[1]!.message).toContain("use spaces, not tabs");
  });
});

describe("text that YAML reads as something else", () => {
  test("a plain value containing ': '", () => {
    expect(problemsOf(yaml("title: Study design", "heading: Study Design: Planning", "body: x"))).toEqual([
      {
        line: 2,
        column: 10,
        message:
          "text containing ': ' must be in double quotes, or YAML takes the part before ': ' for a field name: " +
          'heading: "Study Design: Planning"',
      },
    ]);
  });

  test("a value containing ': ' in a list entry's field", () => {
    const [problem] = problemsOf(yaml("sections:", "  - title: Study Design: Planning"));
    expect(problem).toMatchObject({ line: 2, column: 12 });
    expect(problem!.message).toContain("text containing ': ' must be in double quotes");
    expect(problem!.message).toContain('- title: "Study Design: Planning"');
  });

  test("*Featured* gives a problem, not a crash", () => {
    let parsed: ReturnType<typeof parseYaml> | undefined;
    expect(() => {
      parsed = parseYaml(yaml("title: *Featured*", "body: text"));
    }).not.toThrow();
    expect(parsed!.data).toBeUndefined();
    expect(parsed!.problems).toEqual([
      {
        line: 1,
        column: 8,
        message:
          'text starting with * must be in double quotes, or YAML reads * as a reference to another value: title: "*Featured*"',
      },
    ]);
  });

  test("an alias in a list entry is reported at the *", () => {
    expect(problemsOf(yaml("items:", "  - *Featured", "  - plain"))).toEqual([
      expect.objectContaining({ line: 2, column: 5, message: expect.stringContaining('- "*Featured"') }),
    ]);
  });

  test.each([
    ["&", "title: &amp more", 'title: "&amp more"'],
    ["!", "title: !important news", 'title: "!important news"'],
    ["@", "title: @cyrus on social media", 'title: "@cyrus on social media"'],
    ["`", "title: `code`", 'title: "`code`"'],
    ["%", "title: %50 off", 'title: "%50 off"'],
    ["[", "title: [Draft] Plan", 'title: "[Draft] Plan"'],
    ["{", "title: {Draft} Plan", 'title: "{Draft} Plan"'],
  ])("a value starting with %s must be in double quotes", (indicator, line, fixed) => {
    const problems = problemsOf(yaml("heading: x", line, "body: y"));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: 2, column: 8 });
    expect(problems[0]!.message).toContain(`text starting with ${indicator} must be in double quotes`);
    expect(problems[0]!.message).toMatch(new RegExp(`: ${fixed.replace(/[[\]{}()*!?]/g, "\\$&")}$`));
  });

  test('a value starting with "- " must be in double quotes', () => {
    const [problem] = problemsOf("title: - item\n");
    expect(problem).toMatchObject({ line: 1, column: 8 });
    expect(problem!.message).toBe(
      'text starting with "- " must be in double quotes, or YAML reads "- " as the start of a list entry: title: "- item"',
    );
  });

  test("a quoted part followed by more text", () => {
    expect(problemsOf(yaml('title: "Cyrus" Research', "body: x"))).toEqual([
      {
        line: 1,
        column: 8,
        message:
          'the quoted text ends before the end of the line: put the whole text in double quotes, writing \\" for each double quote inside it: title: "\\"Cyrus\\" Research"',
      },
    ]);
  });

  test("an apostrophe inside single quotes", () => {
    const [problem] = problemsOf(yaml("title: 'It's fine'", "body: x"));
    expect(problem!.message).toMatch(/put the whole text in double quotes.*: title: "It's fine"$/);
  });

  test("a quote that is never closed names the line it opens on", () => {
    expect(problemsOf(yaml("heading: x", 'title: "Clinical research', "body: y"))).toEqual([
      {
        line: 2,
        column: 8,
        message:
          'the text in double quotes that starts on line 2 has no closing ": add one at the end of the text: title: "Clinical research"',
      },
    ]);
  });

  test("a backslash in double quotes", () => {
    expect(problemsOf('path: "C:\\Users"\n')).toEqual([
      {
        line: 1,
        column: 10,
        message:
          'in double quotes a backslash (\\) starts a special character: write \\\\ for a backslash: path: "C:\\\\Users"',
      },
    ]);
  });
});

describe("an indentation slip", () => {
  test("in a mapping, one space too many", () => {
    expect(problemsOf(yaml("contact:", "  phone: 1234", "   email: a@b.c", "  city: Chennai"))).toEqual([
      {
        line: 3,
        column: 4,
        message:
          "line 3 is indented differently from the lines around it: line 3 should start in the same column as line 2 (column 3)",
      },
    ]);
  });

  test("in a mapping, one space too few", () => {
    expect(problemsOf(yaml("contact:", "  phone: 1234", " email: a@b.c", "  city: Chennai"))).toEqual([
      {
        line: 3,
        column: 2,
        message:
          "line 3 is indented differently from the lines around it: line 3 should start in the same column as line 2 (column 3)",
      },
    ]);
  });

  test("in a list, one space too few (the parser's 'block sequence' error)", () => {
    const text = yaml("sections:", "  - title: A", "    items:", "      - one", "     - two");
    expect(problemsOf(text)).toEqual([
      {
        line: 5,
        column: 6,
        message:
          "line 5 is indented differently from the lines around it: line 5 should start in the same column as line 4 (column 7)",
      },
    ]);
  });

  test("in a list, one space too many (no error for YAML: it would publish 'one - two')", () => {
    const text = yaml("items:", "  - one", "   - two", "  - three");
    expect(problemsOf(text)).toEqual([
      {
        line: 3,
        column: 4,
        message:
          "line 3 is indented differently from the lines around it: line 3 should start in the same column as line 2 (column 3)",
      },
    ]);
  });

  test.each([
    ["too many", "     heading: x", 6],
    ["too few", "   heading: x", 4],
  ])("a field of a list entry, one space %s, lines up with the entry's first field", (_, line, column) => {
    expect(problemsOf(yaml("sections:", "  - title: A", line, "  - title: B"))).toEqual([
      {
        line: 3,
        column,
        message:
          'line 3 is indented differently from the lines around it: line 3 should start in the same column as line 2 (column 5), where "title: A" begins',
      },
    ]);
  });

  test("a list's first entry one space too few (no error for YAML: the whole list would be one text)", () => {
    const text = yaml("sections:", "  - items:", "     - one", "      - two", "      - three", "    heading: A");
    expect(problemsOf(text)).toEqual([
      {
        line: 3,
        column: 6,
        message:
          "line 3 is indented differently from the lines around it: line 3 should start in the same column as line 4 (column 7)",
      },
    ]);
  });

  test("the first line of a block of text one space too far", () => {
    const text = yaml("intro:", "  - >-", "     First line,", "    the second", "    and the third.", "  - Another");
    expect(problemsOf(text)).toEqual([
      {
        line: 3,
        column: 6,
        message:
          "line 3 is indented differently from the lines around it: line 3 should start in the same column as line 4 (column 5)",
      },
    ]);
  });

  test("when the first line of a block is the odd one, it is the one named", () => {
    expect(problemsOf(yaml("contact:", "   phone: 1234", "  email: a@b.c", "  city: Chennai"))).toEqual([
      {
        line: 2,
        column: 4,
        message:
          "line 2 is indented differently from the lines around it: line 2 should start in the same column as line 3 (column 3)",
      },
    ]);
  });
});

describe("other mistakes", () => {
  test("a duplicate field names both lines", () => {
    const text = yaml("title: A", "heading: B", "body: C", "title: D");
    expect(problemsOf(text)).toEqual([
      { line: 4, column: 1, message: 'the field "title" appears twice (lines 1 and 4): keep one' },
    ]);
  });

  test("a field three times is one problem", () => {
    const text = yaml("sections:", "  - title: A", "    title: B", "    title: C");
    expect(problemsOf(text)).toEqual([
      { line: 3, column: 5, message: 'the field "title" appears 3 times (lines 2, 3 and 4): keep one' },
    ]);
  });

  test("a line of text without a field name", () => {
    expect(problemsOf(yaml("intro: First paragraph.", "Second paragraph.", "title: x"))).toEqual([
      {
        line: 2,
        column: 1,
        message:
          'line 2 is text without a field name: write it as "name: text", or, if it goes on from the text above, indent it two spaces more than the line where that text starts',
      },
    ]);
  });

  test("a second document", () => {
    expect(problemsOf(yaml("title: A", "---", "title: B"))).toEqual([
      {
        line: 2,
        column: 1,
        message:
          'a line starting with "---" starts a second document, and a content file is one document: remove line 2',
      },
    ]);
  });

  test("anything else gets the plain fallback", () => {
    expect(problemsOf(yaml("sections:", "  - title: A", "  heading: B"))).toEqual([
      { line: 3, column: 1, message: FALLBACK_MESSAGE },
    ]);
    expect(FALLBACK_MESSAGE).toBe("this line is not valid YAML: check the quotes, colons and indentation around it");
  });
});

describe("hand-edited slips, each named at its own line and column", () => {
  /** The bytes an editor saved, as the build reads them: decoded as UTF-8. */
  const savedAs = (bytes: Buffer) => bytes.toString("utf8");
  const SERVICE = [
    "slug: project-management",
    "order: 10",
    "menuLabel: Project Management",
    "cardTitle: Project Management",
  ];

  test.each([
    [
      "a non-breaking space used to indent",
      yaml("contact:", "  phone: 1234", "\u00a0 email: a@b.c", "  city: Chennai"),
      3,
      1,
      "line 3 is indented with a non-breaking space (U+00A0), which looks like a space but is not one to YAML: replace it with an ordinary space",
    ],
    [
      "non-breaking spaces indenting a list entry's field",
      yaml("sections:", "  - heading: A", "\u00a0\u00a0\u00a0\u00a0items: []", "  - heading: B"),
      3,
      1,
      "line 3 is indented with a non-breaking space (U+00A0), which looks like a space but is not one to YAML: replace it with an ordinary space",
    ],
    [
      "a non-breaking space after the spaces of the indentation",
      yaml("contact:", "  phone: 1234", " \u00a0email: a@b.c"),
      3,
      2,
      "line 3 is indented with a non-breaking space (U+00A0), which looks like a space but is not one to YAML: replace it with an ordinary space",
    ],
    [
      "a non-breaking space after title:",
      yaml(...SERVICE, "title:\u00a0Project Management", "metaTitle: Project Management"),
      5,
      7,
      'after "title:" on line 5 comes a non-breaking space (U+00A0), which looks like a space but is not one to YAML: replace it with an ordinary space',
    ],
    [
      "a narrow non-breaking space after a list entry's field name",
      yaml("sections:", "  - heading:\u202fA"),
      2,
      13,
      'after "heading:" on line 2 comes a narrow non-breaking space (U+202F), which looks like a space but is not one to YAML: replace it with an ordinary space',
    ],
    [
      "an ideographic space after a list's dash",
      yaml("items:", "  -\u3000one", "  - two"),
      2,
      4,
      'after the list\'s "-" on line 2 comes an ideographic space (U+3000), which looks like a space but is not one to YAML: replace it with an ordinary space',
    ],
    [
      "a zero-width space before a field name",
      yaml("title: A", "\u200bheading: B"),
      2,
      1,
      "line 2 starts with an invisible character, a zero-width space (U+200B): delete it",
    ],
    [
      'a file saved as UTF-16 with its byte order mark (Notepad\'s "Unicode")',
      savedAs(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(yaml(...SERVICE), "utf16le")])),
      1,
      1,
      'the file is saved as UTF-16 (what Notepad calls "Unicode"), not UTF-8, so its text cannot be read: save it as UTF-8 (in Notepad: File, Save As, then Encoding: UTF-8; in other editors, "Save with encoding" or "Reopen with encoding")',
    ],
    [
      "a file saved as Windows-1252 (not valid UTF-8)",
      savedAs(Buffer.from(yaml("title: A", "heading: Caf\u00e9 and more"), "latin1")),
      2,
      13,
      'line 2 has a character that is not UTF-8 at column 13 (the file was saved in another encoding, such as "ANSI" or Windows-1252): save it as UTF-8 (in Notepad: File, Save As, then Encoding: UTF-8; in other editors, "Save with encoding" or "Reopen with encoding"), then check that character',
    ],
    [
      "a list entry without a space after the dash",
      yaml("intro:", "  - First paragraph.", "  -We manage projects."),
      3,
      3,
      'line 3: "-We manage projects." has no space after its dash, so YAML does not read it as a list entry: put a space after the dash: - We manage projects.',
    ],
    [
      "curly quotes around a text that needs quotes: the advice has straight ones instead",
      yaml("title: \u201cStudy Design: Planning\u201d", "body: x"),
      1,
      8,
      "text containing ': ' must be in double quotes, or YAML takes the part before ': ' for a field name: " +
        'title: "Study Design: Planning"',
    ],
  ])("%s", (_, text, line, column, message) => {
    expect(problemsOf(text)).toEqual([{ line, column, message }]);
  });

  test("a non-breaking space inside a text is the text's own", () => {
    expect(problemsOf(yaml("title: 10\u00a0mg doses", "body: >-", "  \u00a0indented text"))).toEqual([]);
  });

  test("a byte order mark that opens a UTF-8 file is no problem", () => {
    expect(problemsOf("\ufefftitle: A\n")).toEqual([]);
  });
});

describe("one mistake, one message", () => {
  test("the parser's follow-on errors are not reported", () => {
    // The parser gives three errors for this slip.
    expect(problemsOf(yaml("items:", "  - x", " - y", "  - z"))).toHaveLength(1);
  });

  test("a mistake after the first syntax error is reported when it stands on its own", () => {
    const problems = problemsOf(yaml("a:", "  b: 1", "   c: 2", "d: *Featured*"));
    expect(problems.map((p) => p.line)).toEqual([3, 4]);
  });

  test("one line gets one message", () => {
    expect(problemsOf("a: * x\n")).toHaveLength(1);
  });
});

describe("messages are plain words", () => {
  const texts = [
    yaml("heading: Study Design: Planning"),
    yaml("a:", "\tb: 1"),
    yaml("title: *Featured*"),
    yaml("title: *Featured", "b: 1"),
    yaml("items:", "  - x", " - y"),
    yaml("a:", "  b: 1", "   c: 2"),
    yaml("sections:", "  - title: A", "    items:", "      - one", "     - two"),
    yaml("title: a", "title: b"),
    yaml("cards: [unclosed", "b: 1"),
    yaml("title: [Draft] Plan"),
    yaml('title: "abc', "b: 2"),
    yaml("title: @home"),
    yaml("a: 1", "- b"),
    yaml("- a", "b: 1"),
    yaml("%FOO bar", "---", "a: 1"),
    yaml('a: "\\q"'),
    "{".repeat(200),
    "\u0000\u0001\u0002",
  ];

  test.each(texts.map((text) => [JSON.stringify(text).slice(0, 40), text]))("%s", (_, text) => {
    let parsed: ReturnType<typeof parseYaml> | undefined;
    expect(() => {
      parsed = parseYaml(text);
    }).not.toThrow();
    expectPlain(parsed!.problems);
    for (const problem of parsed!.problems) {
      expect(problem.line).toBeGreaterThanOrEqual(1);
      expect(problem.column).toBeGreaterThanOrEqual(1);
    }
  });
});
