/**
 * What a visitor finds of each section of the page with a section of every type, read from its YAML
 * (data/pages/<slug>.yaml through everySectionPage()): headings, texts, pictures by their alt, links
 * with their targets, questions, the slideshow and the company's e-mail.
 */
import type { Locator } from "@playwright/test";
import { everySectionPage, rawSections, type RawSection } from "../../support/added-pages";
import { site } from "./content";
import { expect } from "./fixtures";

export const addedPage = everySectionPage();
export const sections = rawSections(addedPage);
export const sectionOf = (type: string) => sections.find((s) => s.type === type)!;

/** A line of Markdown as it reads: without its marks, a link as its words. */
const plain = (line: string) =>
  line
    .replace(/^\s*(#+|[-*]|\d+\.)\s+/, "")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]/g, "")
    .trim();
export const firstLine = (markdown: string) => plain(markdown.split("\n").find((line) => line.trim())!);
const links = (markdown: string) =>
  [...markdown.matchAll(/\[([^\]]+)\]\(([^)\s]+)\)/g)].map(([, name, href]) => ({ name: name!, href: href! }));

/** A Markdown text is shown: its first line, and each link with its target. */
async function expectMarkdown(scope: Locator, markdown: string) {
  await expect(scope.getByText(firstLine(markdown)).first()).toBeVisible();
  for (const { name, href } of links(markdown))
    await expect(scope.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
}

const heading = (scope: Locator, name: string) => scope.getByRole("heading", { name, exact: true });
export const slideshow = (main: Locator, label: string) => main.getByRole("region", { name: label });
export const question = (main: Locator, text: string) => main.locator("summary", { hasText: text });
/** The first line of a question's answer, inside its <details>. */
export const answer = (main: Locator, item: { question: string; answer: string }) =>
  main
    .locator("details")
    .filter({ has: main.page().locator("summary", { hasText: item.question }) })
    .getByText(firstLine(item.answer))
    .first();

/** Checks that `section` is shown in `main` as its YAML says, questions closed. */
export async function expectSection(main: Locator, section: RawSection) {
  if (section.heading) await expect(heading(main, section.heading)).toBeVisible();
  switch (section.type) {
    case "text":
      return expectMarkdown(main, section.body!);
    case "picture-with-text":
      await expect(main.getByRole("img", { name: section.alt!, exact: true })).toBeVisible();
      if (section.caption) await expect(main.getByText(section.caption, { exact: true })).toBeVisible();
      return expectMarkdown(main, section.body!);
    case "cards":
      for (const card of section.cards!) {
        const item = main.getByRole("listitem").filter({ has: main.page().getByRole("heading", { name: card.title }) });
        await expect(item.getByText(card.text, { exact: true })).toBeVisible();
        if (card.imageAlt) await expect(item.getByRole("img", { name: card.imageAlt, exact: true })).toBeVisible();
        if (card.link) await expect(item.getByRole("link")).toHaveAttribute("href", card.link);
        if (card.linkLabel) await expect(item.getByRole("link")).toContainText(card.linkLabel);
      }
      return;
    case "call-to-action": {
      await expect(main.getByText(section.text!, { exact: true })).toBeVisible();
      const button = main.getByRole("link", { name: section.buttonLabel!, exact: true });
      await expect(button).toBeVisible();
      if (section.buttonTo) await expect(button).toHaveAttribute("href", section.buttonTo);
      return;
    }
    case "questions":
      for (const item of section.items!) {
        await expect(question(main, item.question)).toBeVisible();
        await expect(answer(main, item), "the answer waits for its question").toBeHidden();
      }
      return;
    case "slideshow": {
      const region = slideshow(main, section.label!);
      await expect(region.locator('[aria-roledescription="slide"]')).toHaveCount(section.slides!.length);
      await expect(region.getByRole("img"), "one slide shows at a time").toHaveCount(1);
      return;
    }
    case "contact-strip":
      return expect(main.getByRole("link", { name: site.email, exact: true })).toBeVisible();
    default:
      throw new Error(`no check for a section of type ${section.type}: add one to e2e/support/added-page.ts`);
  }
}
