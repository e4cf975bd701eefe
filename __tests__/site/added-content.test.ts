/**
 * @jest-environment node
 *
 * Adding a service or a page is adding data, nothing else (docs/editing-content.md, "Adding a
 * service", "Adding a page"), as the fixture site shows (one shared build of a copy of the project,
 * __tests__/support/fixture-site.ts; built here when it is missing or out of date):
 * - a new file data/services/<slug>.yaml and its slug in the dropdown's list make its page, its card
 *   on /services, its dropdown entry on every page and its sitemap entry;
 * - the page of data/pages/ with a section of every type (the example the repository ships, kept out
 *   of production there with `inProgress: true`) made ready, and named by one line of the menu, is
 *   built at /<slug> with every section, its head tags and structured data, the menu's link and its
 *   sitemap entry.
 * Nothing in src/ or in the tests names them.
 */
import fs from "node:fs";
import path from "node:path";
import { content } from "../support/content";
import { rawSections, SECTION_TYPES, type RawSection } from "../support/added-pages";
import { islandSources, scriptTags, shownBehaviours, speculationRules } from "../support/page-scripts";
import {
  addedService as added,
  ensureFixtureSite,
  fixtureBuildLog,
  fixturePage as page,
  fixturePageWithoutSlideshow as copy,
  fixturePublic,
} from "../support/fixture-site";

const slug = added.slug;

const sections = rawSections(page);

beforeAll(async () => {
  await ensureFixtureSite();
}, 960_000);

const html = (route: string) => fs.readFileSync(path.join(fixturePublic, route, "index.html"), "utf8");

test("the copy builds without an error", () => {
  // Its stamp is written after a build that exited 0 only; Gatsby may still print an error and go on.
  expect(fs.readFileSync(fixtureBuildLog, "utf8")).not.toMatch(/ERROR/);
});

test("the new service has its page at /services/<slug>, with its title", () => {
  expect(html(`services/${slug}`)).toMatch(new RegExp(`<h1[^>]*>${added.title}</h1>`));
});

test("its card is on /services, last, as its order says", () => {
  const main = html("services").match(/<main.*<\/main>/s)![0];
  const cards = [...main.matchAll(/<h3[^>]*><a[^>]+href="\/services\/([a-z0-9-]+)"[^>]*>([^<]+)<\/a><\/h3>/g)];
  expect(cards.map((m) => m[1]).at(-1)).toBe(slug);
  expect(cards.map((m) => m[2]).at(-1)).toBe(added.cardTitle);
});

test("the Services dropdown of every page lists it, last", () => {
  for (const route of ["home", "services", `services/${slug}`]) {
    const nav = html(route).match(/<nav aria-label="Main".*?<\/nav>/s)![0];
    const entries = [...nav.matchAll(/<a[^>]+href="(\/services\/[a-z0-9-]+)"[^>]*>([^<]+)<\/a>/g)];
    expect(entries.at(-1)?.slice(1)).toEqual([`/services/${slug}`, added.menuLabel]);
  }
});

test("the sitemap lists it", () => {
  const sitemaps = fs.readdirSync(fixturePublic).filter((f) => /^sitemap-\d+\.xml$/.test(f));
  const xml = sitemaps.map((f) => fs.readFileSync(path.join(fixturePublic, f), "utf8")).join("");
  expect(xml).toContain(`/services/${slug}</loc>`);
});

describe("an added page with a section of every type", () => {
  const main = () => html(page.slug).match(/<main.*<\/main>/s)![0];
  const head = () => html(page.slug).match(/<head>.*<\/head>/s)![0];

  test("the fixture page holds every section type", () => {
    expect(new Set(sections.map((s) => s.type))).toEqual(new Set(SECTION_TYPES));
  });

  test("it is built at /<slug> with its title as the page's heading and the tab's title", () => {
    expect(main()).toMatch(new RegExp(`<h1[^>]*>${page.title}</h1>`));
    expect(head()).toMatch(new RegExp(`<title[^>]*>${page.title} – Cyrus</title>`));
    expect(head()).toContain(`<meta name="description" content="${page.description}"`);
  });

  test("every section is in the HTML, in the order written, without JavaScript", () => {
    const order: number[] = [];
    for (const section of sections) {
      const mark = sectionMark(section);
      const at = main().indexOf(mark, order.at(-1) ?? 0);
      expect({ type: section.type, mark, found: at >= 0 }).toEqual({ type: section.type, mark, found: true });
      order.push(at);
    }
    // Questions open without scripts: <details> with the question as <summary>.
    for (const section of sections.filter((s) => s.type === "questions"))
      for (const item of section.items ?? []) expect(main()).toMatch(new RegExp(`<summary[^>]*>[^]*?${item.question}`));
  });

  test("its structured data: a WebPage, a trail from Home, and its questions as an FAQPage", () => {
    const data = [...head().matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map(
      (m) => JSON.parse(m[1]!) as { "@type": string; mainEntity?: Array<{ name: string }> },
    );
    const types = data.map((d) => d["@type"]);
    expect(types).toEqual(expect.arrayContaining(["WebPage", "BreadcrumbList", "FAQPage"]));
    const questions = sections.flatMap((s) => (s.type === "questions" ? (s.items ?? []) : []));
    expect(data.find((d) => d["@type"] === "FAQPage")!.mainEntity!.map((q) => q.name)).toEqual(
      questions.map((q) => q.question),
    );
  });

  test("the menu's new line links to it on every page, and the sitemap lists it", () => {
    for (const route of ["home", page.slug]) {
      const nav = html(route).match(/<nav aria-label="Main".*?<\/nav>/s)![0];
      expect(nav).toContain(`href="/${page.slug}"`);
    }
    const sitemaps = fs.readdirSync(fixturePublic).filter((f) => /^sitemap-\d+\.xml$/.test(f));
    const xml = sitemaps.map((f) => fs.readFileSync(path.join(fixturePublic, f), "utf8")).join("");
    expect(xml).toContain(`/${page.slug}</loc>`);
  });
});

describe("the scripts of the added page, and of its copy without a slideshow", () => {
  test("the page with a slideshow ships the carousel's island alone, its copy without one ships no script and no preload", () => {
    const withShow = html(page.slug);
    const without = html(copy.slug);
    expect(without).toMatch(new RegExp(`<h1[^>]*>${copy.title}</h1>`));
    expect(shownBehaviours(withShow)).toEqual(["carousel"]);
    expect(shownBehaviours(without)).toEqual([]);
    expect(
      scriptTags(withShow)
        .filter((tag) => tag.executable)
        .map((tag) => [tag.type, tag.src?.replace(/-[A-Z0-9]+\.js$/, "-<hash>.js")]),
    ).toEqual([["module", "/islands/carousel-<hash>.js"]]);
    expect(fs.existsSync(path.join(fixturePublic, islandSources(withShow)[0]!))).toBe(true);
    expect(withShow).not.toMatch(/<link[^>]*\brel="[^"]*\b(preload|prefetch|modulepreload)\b|page-data/);
    expect(scriptTags(without).filter((tag) => tag.executable)).toEqual([]);
    expect(without).not.toMatch(/<link[^>]*\brel="[^"]*\b(preload|prefetch|modulepreload)\b|\.js["?]|page-data/);
    // The same sections otherwise, in the same order (the copy's questions among them).
    for (const item of sections.find((s) => s.type === "questions")?.items ?? [])
      expect(without).toContain(item.question);
    expect(speculationRules(without)).toEqual(speculationRules(withShow));
    expect(speculationRules(without)).toHaveLength(1);
  });
});

/** A piece of HTML each section type surely renders from its data. */
function sectionMark(section: RawSection): string {
  switch (section.type) {
    case "text":
    case "picture-with-text":
      return firstWords(section.body ?? "");
    case "cards":
      return section.cards?.[0]?.title ?? "";
    case "call-to-action":
      return section.buttonLabel ?? "";
    case "questions":
      return section.items?.[0]?.question ?? "";
    case "slideshow":
      return `aria-label="${section.label}"`;
    case "contact-strip":
      return content.site.email;
    default:
      return "";
  }
}

/** The first plain words of a Markdown text: its first line without Markdown's marks. */
const firstWords = (markdown: string) =>
  markdown
    .split("\n")
    .map((line) => line.replace(/^#+\s*|^[-*]\s+|^\d+\.\s+/, "").trim())
    .find((line) => /^[A-Za-z][A-Za-z ,]{8,}/.test(line))!
    .match(/^[A-Za-z][A-Za-z ,]{8,}/)![0]
    .trim();
