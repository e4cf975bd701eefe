import { render, screen, within } from "@testing-library/react";
import { Markdown } from "../../src/components/sections/markdown";
import { parseMarkdownSubset } from "../../src/node/content/markdown-subset";
import type { MarkdownTree } from "../../src/types/markdown";

// React names a list whose entries lack keys on the console: the text renders without such warnings.
let consoleError: jest.SpyInstance;
beforeEach(() => {
  consoleError = jest.spyOn(console, "error");
});
afterEach(() => {
  const messages = consoleError.mock.calls;
  consoleError.mockRestore();
  expect(messages).toEqual([]);
});

/** What the build hands the page: the tree of the text, which must have been accepted. */
function treeOf(source: string): MarkdownTree {
  const { tree, problems } = parseMarkdownSubset(source);
  expect(problems).toEqual([]);
  return tree;
}

test("headings by level, paragraphs, bold, italic and line breaks as a visitor's browser reads them", () => {
  const { container } = render(
    <Markdown
      tree={treeOf("## Our work\n\nWe **plan** and *run* studies,  \nin India.\n\n### In short\n\nOne\ntwo.\n")}
    />,
  );
  expect(screen.getByRole("heading", { level: 2 })).toHaveTextContent("Our work");
  expect(screen.getByRole("heading", { level: 3 })).toHaveTextContent("In short");
  const paragraphs = [...container.querySelectorAll("p")];
  expect(paragraphs.map((p) => p.textContent)).toEqual(["We plan and run studies,in India.", "One\ntwo."]);
  expect(paragraphs[0]!.querySelector("strong")).toHaveTextContent("plan");
  expect(paragraphs[0]!.querySelector("em")).toHaveTextContent("run");
  expect(paragraphs[0]!.querySelectorAll("br")).toHaveLength(1);
});

test("bulleted and numbered lists, nested, each entry its own text; a numbered list keeps its first number", () => {
  render(<Markdown tree={treeOf("- design\n- conduct\n  1. sites\n  2. monitoring\n\ntext\n\n3. resumed\n")} />);
  const [bullets, nested, resumed] = screen.getAllByRole("list");
  expect(bullets!.tagName).toBe("UL");
  const entries = within(bullets!)
    .getAllByRole("listitem")
    .filter((li) => li.parentElement === bullets);
  expect(entries.map((li) => li.firstChild?.textContent)).toEqual(["design", "conduct"]);
  // An entry's text is not wrapped in a paragraph of its own.
  expect(bullets!.querySelector("p")).toBeNull();
  expect(nested!.tagName).toBe("OL");
  expect(entries[1]).toContainElement(nested!);
  expect(
    within(nested!)
      .getAllByRole("listitem")
      .map((li) => li.textContent),
  ).toEqual(["sites", "monitoring"]);
  expect(resumed).toHaveAttribute("start", "3");
  expect(nested).not.toHaveAttribute("start");
});

test("a list with an entry of several paragraphs keeps its entries' paragraphs, so that they look alike", () => {
  const { container } = render(<Markdown tree={treeOf("- first\n\n  more\n- second\n")} />);
  expect([...container.querySelectorAll("li p")].map((p) => p.textContent)).toEqual(["first", "more", "second"]);
});

test("links lead where the text says: the site's pages, websites, e-mail and telephone, in the same tab", () => {
  render(
    <Markdown
      tree={treeOf(
        "[Contact us](/contact), [our partner](https://example.com/x), [write](mailto:a@example.com), [call](tel:+914400000000)\n",
      )}
    />,
  );
  const links = screen.getAllByRole("link");
  expect(links.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
    ["Contact us", "/contact"],
    ["our partner", "https://example.com/x"],
    ["write", "mailto:a@example.com"],
    ["call", "tel:+914400000000"],
  ]);
  for (const link of links) expect(link).not.toHaveAttribute("target");
});

test("text that looks like HTML is shown as the words typed, never as markup", () => {
  const { container } = render(
    <Markdown tree={treeOf("5 < 6, &lt;script&gt;alert(1)&lt;/script&gt; and \\<b>bold\n")} />,
  );
  expect(container.querySelector("p")).toHaveTextContent("5 < 6, <script>alert(1)</script> and <b>bold");
  expect(container.querySelector("script, b")).toBeNull();
});
