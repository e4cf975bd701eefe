/**
 * @jest-environment node
 */
import { parseDocument, LineCounter } from "yaml";
import { markdownLinesInYaml, parseMarkdownSubset } from "../../src/node/content/markdown-subset";

const text = (...lines: string[]) => `${lines.join("\n")}\n`;

test("every construct of the subset becomes the tree the page renders, with nothing refused", () => {
  const { tree, problems, sitePaths } = parseMarkdownSubset(
    text(
      "## Our work",
      "",
      "We **plan** and *run* studies, [see how](/services/study-design#steps).",
      "A second line  ",
      "after a hard break\\",
      "and another.",
      "",
      "### In short",
      "",
      "- design",
      "- conduct",
      "  1. sites",
      "  2. monitoring",
      "",
      "3. resumed at three",
      "",
      "Write to [us](mailto:info@example.com), call [us](tel:+914400000000) or read [the rules](https://example.com/a).",
    ),
  );
  expect(problems).toEqual([]);
  const words = (v: string) => ({ t: "text", v });
  expect(tree).toEqual([
    { t: "h2", c: [words("Our work")] },
    {
      t: "p",
      c: [
        words("We "),
        { t: "strong", c: [words("plan")] },
        words(" and "),
        { t: "em", c: [words("run")] },
        words(" studies, "),
        { t: "link", href: "/services/study-design#steps", c: [words("see how")] },
        words(".\nA second line"),
        { t: "br" },
        words("after a hard break"),
        { t: "br" },
        words("and another."),
      ],
    },
    { t: "h3", c: [words("In short")] },
    {
      t: "ul",
      items: [
        [{ t: "p", c: [words("design")] }],
        [
          { t: "p", c: [words("conduct")] },
          { t: "ol", items: [[{ t: "p", c: [words("sites")] }], [{ t: "p", c: [words("monitoring")] }]] },
        ],
      ],
    },
    { t: "ol", start: 3, items: [[{ t: "p", c: [words("resumed at three")] }]] },
    {
      t: "p",
      c: [
        words("Write to "),
        { t: "link", href: "mailto:info@example.com", c: [words("us")] },
        words(", call "),
        { t: "link", href: "tel:+914400000000", c: [words("us")] },
        words(" or read "),
        { t: "link", href: "https://example.com/a", c: [words("the rules")] },
        words("."),
      ],
    },
  ]);
  // Only the site's own paths, for the check to resolve against the routes.
  expect(sitePaths).toEqual([{ path: "/services/study-design", href: "/services/study-design#steps", line: 3 }]);
});

test("text that only looks like HTML stays text, and the tree carries it as typed", () => {
  const { tree, problems } = parseMarkdownSubset("5 < 6 and 7 > 3, &lt;script&gt;alert(1)&lt;/script&gt; \\<b>\n");
  expect(problems).toEqual([]);
  expect(tree).toEqual([{ t: "p", c: [{ t: "text", v: "5 < 6 and 7 > 3, <script>alert(1)</script> <b>" }] }]);
});

// Each refused construct on line 3 of its text (a block after a paragraph), or on line 2 (inline, in
// the second line of a paragraph): the line an editor is sent to.
test.each([
  [
    "a level 1 heading",
    "# Our values",
    3,
    "\"# Our values\" is a level 1 heading: headings in a page's text are level 2 (## ) or 3 (### ); the page's title is its level 1. Write ## Our values",
  ],
  ["a level 1 heading", "Our values\n===", 3, '"Our values" underlined with "===" is a level 1 heading'],
  [
    "a level 4 heading",
    "#### Details",
    3,
    '"#### Details" is a level 4 heading: headings in a page\'s text are level 2 (## ) or 3 (### ). Write ### Details',
  ],
  ["a level 6 heading", "###### Details", 3, "Write ### Details"],
  [
    "HTML",
    '<div class="x">\nhello\n</div>',
    3,
    '"<div class="x">" is HTML: a page\'s text holds no HTML: write it in Markdown',
  ],
  ["an HTML comment", "<!-- note -->", 3, '"<!-- note -->" is an HTML comment'],
  ["HTML", "Intro\nsome <b>bold</b> words", 2, '"<b>" is HTML: a page\'s text holds no HTML'],
  [
    "a picture",
    "Intro\nsee ![a chart](./images/chart.png)",
    2,
    "is a picture, which a page's text does not hold: put the picture in a picture-with-text section",
  ],
  [
    "code",
    "Intro\nrun `npm test` now",
    2,
    "`npm test` is between backticks, which Markdown shows as code: a page's text has no code; remove the backticks",
  ],
  ["a block of code", "```\nnpm test\n```", 3, "the lines between the ``` lines are a block of code"],
  ["a block of code", "    indented", 3, "this line is indented by four spaces or more"],
  [
    "a block quote",
    "> a quotation",
    3,
    "lines that start with > are a block quote, which a page's text does not hold: remove the >",
  ],
  ["a dividing line", "***", 3, "*** on a line of its own is a dividing line"],
  [
    "a table",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    3,
    "lines with | between columns are a table, which a page's text does not hold: write it as a list (- …)",
  ],
  ["struck-through text", "Intro\n~~old~~ new", 2, "text between ~~ is struck through"],
  [
    "a link",
    "Intro\n[click](javascript:alert(1))",
    2,
    "the link \"javascript:alert(1)\" would run a program in the visitor's browser, which a page's text never does",
  ],
  ["a link", "Intro\n[click](&#106;avascript:alert(1))", 2, 'the link "javascript:alert(1)" would run a program'],
  [
    "a link",
    "Intro\n[click](data:text/html,hi)",
    2,
    'the link "data:text/html,hi" begins with "data:", which a page\'s text does not link to',
  ],
  [
    "a link",
    "Intro\n[click](contact)",
    2,
    "the link \"contact\" is relative, so where it leads would depend on the page it is on: write the page's path from the site's root, starting with /: /contact",
  ],
  ["a link", "Intro\n[click](../services/x)", 2, "starting with /: /services/x"],
  [
    "a link",
    "Intro\n[click](//example.com/x)",
    2,
    'the link "//example.com/x" starts with two slashes: write a website\'s address in full, https://example.com/x',
  ],
  ["a link", "Intro\n[click]()", 2, "a link without an address ([words]())"],
])("%s: %j is refused on its line", (construct, source, line, message) => {
  const start = source.startsWith("Intro\n") ? "" : "Intro.\n\n";
  const { problems, sitePaths } = parseMarkdownSubset(`${start}${source}\n`);
  expect(problems).toEqual([{ line, construct, message: expect.stringContaining(message) }]);
  expect(sitePaths).toEqual([]);
});

test("a line of a paragraph is counted across line breaks, links and HTML that spans lines", () => {
  const { problems } = parseMarkdownSubset(text("one", "two  ", "[three](/x) <span", 'title="a">', "five `code`"));
  expect(problems.map((p) => [p.construct, p.line])).toEqual([
    ["HTML", 3],
    ["code", 5],
  ]);
});

test("the lines of a block scalar kept with | are the YAML file's lines; other forms point at the field", () => {
  const yaml = text(
    "slug: careers",
    "sections:",
    "  - type: text",
    "    body: |",
    "      ## Work with us",
    "",
    "      # Open positions",
    "  - type: text",
    '    body: "## Fine\\n\\n# Not fine"',
  );
  const lines = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter: lines });
  const place = (i: number) => {
    const node = doc.getIn(["sections", i, "body"], true);
    return parseMarkdownSubset(String(doc.getIn(["sections", i, "body"])), {
      lineOf: markdownLinesInYaml(node, lines),
    }).problems.map((p) => p.line);
  };
  expect(place(0)).toEqual([7]);
  expect(place(1)).toEqual([9]);
});
