/**
 * @jest-environment node
 *
 * Each built page carries exactly the islands of what it does in the browser (docs/performance.md,
 * "Pages without behaviour ship no script"): a page that shows a carousel, the enquiry form, the map
 * or Why Cyrus's cards loads that behaviour's ES module from public/islands/ and nothing else; no page
 * loads anything of Gatsby's runtime, or preloads a script or Gatsby's data. Every page has the same
 * speculation rules, and its whole body.
 *
 * What a page does is read here from what its HTML shows (a carousel, a form, a map frame), not from
 * the components' registry (src/hooks/use-behaviour.ts) that decided it: a component that needs a
 * script but forgot to say so fails here.
 *
 * With PAGES_BEFORE set to a public/ built from the commit before this change (or any earlier
 * build), every page's body is also compared with that build's: the same but for what follows the
 * React root (Gatsby's scripts then, the islands now).
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { builtPages } from "../../plugins/gatsby-plugin-cyrus-performance/src/pages";
import { SPECULATION_RULES } from "../../src/utils/speculation-rules";
import { routes } from "../support/content";
import { projectRoot } from "../support/serve";
import {
  islandBehaviour,
  islandSources,
  pageAnatomy,
  scriptTags,
  shownBehaviours,
  speculationRules,
} from "../support/page-scripts";

/** Brotli bytes: each island at most, and all of a page's islands together at most. */
const ISLAND_BUDGET = 4 * 1024;
const PAGE_BUDGET = 10 * 1024;

const publicDir = path.join(projectRoot, "public");
const pages = builtPages(publicDir, path.join(projectRoot, "static")).map((file) => ({
  page: path.relative(publicDir, file),
  html: fs.readFileSync(file, "utf8"),
}));
const routeFile = (route: string) => (route === "/" ? "index.html" : `${route.slice(1)}/index.html`);
const htmlOf = (route: string) => pages.find((p) => p.page === routeFile(route))!.html;
const brotli = (src: string) => zlib.brotliCompressSync(fs.readFileSync(path.join(publicDir, src))).length;

test("the build holds every route", () => {
  for (const route of routes) expect(pages.map((p) => p.page)).toContain(routeFile(route));
});

test("most routes show nothing that needs a script; the carousels, the contact page's form and map and Why Cyrus's cards do", () => {
  const withBehaviour = routes.filter((route) => shownBehaviours(htmlOf(route)).length > 0);
  expect(shownBehaviours(htmlOf("/home"))).toEqual(["carousel"]);
  expect(shownBehaviours(htmlOf("/contact"))).toEqual(["carousel", "enquiry-form", "map"]);
  expect(shownBehaviours(htmlOf("/whycyrus"))).toEqual(["reveal-cards"]);
  expect(withBehaviour.length).toBeLessThan(routes.length / 2);
  for (const route of ["/", "/aboutus", "/services", "/activities", routes.find((r) => r.startsWith("/services/"))!])
    expect(shownBehaviours(htmlOf(route))).toEqual([]);
});

test.each(pages.map((p) => [p.page, p.html] as const))(
  "%s loads exactly the islands of what it shows, and nothing of Gatsby's runtime",
  (page, html) => {
    const islands = islandSources(html);
    expect(islands.map(islandBehaviour)).toEqual(shownBehaviours(html));
    // Code it runs: its islands, each an ES module from the site's origin with nothing inline.
    const executable = scriptTags(html).filter((tag) => tag.executable);
    expect(executable.map((tag) => tag.src)).toEqual(islands);
    for (const tag of executable) {
      expect(tag.type).toBe("module");
      expect(tag.text).toBe("");
      expect(fs.existsSync(path.join(publicDir, tag.src!))).toBe(true);
    }
    // Nothing that makes the browser fetch another script or Gatsby's data, by any tag.
    expect(html).not.toMatch(/<link[^>]*\brel="[^"]*\b(preload|prefetch|modulepreload)\b[^>]*\bas="(script|fetch)"/);
    expect(html).not.toMatch(/<link[^>]*\brel="[^"]*\bmodulepreload\b/);
    expect(html.replace(/\/islands\/[a-z-]+-[A-Z0-9]+\.js/g, "")).not.toMatch(/\.m?js["?]/);
    expect(html).not.toMatch(/page-data|app-data\.json|\/static\/d\/|webpack-runtime|gatsby-script-loader/);
    expect(html).not.toContain("slice-start");
  },
);

test("each island is a few KB at most, and a page's islands together at most 10 KB (brotli)", () => {
  const all = fs.readdirSync(path.join(publicDir, "islands")).filter((f) => f.endsWith(".js"));
  expect(all.map((f) => islandBehaviour(`/islands/${f}`)).sort()).toEqual([
    "carousel",
    "enquiry-form",
    "map",
    "reveal-cards",
  ]);
  for (const file of all) expect(brotli(`/islands/${file}`)).toBeLessThanOrEqual(ISLAND_BUDGET);
  for (const { html } of pages)
    expect(islandSources(html).reduce((sum, src) => sum + brotli(src), 0)).toBeLessThanOrEqual(PAGE_BUDGET);
});

test("the islands' data is JSON that no text can end early, beside the island that reads it", () => {
  const contact = htmlOf("/contact");
  for (const behaviour of ["carousel", "enquiry-form"]) {
    const data = scriptTags(contact).find((tag) => tag.id === `island-data-${behaviour}`);
    expect(data?.type).toBe("application/json");
    expect(data!.text).not.toContain("<");
    expect(Object.values(JSON.parse(data!.text) as Record<string, unknown>).every((v) => v !== "")).toBe(true);
  }
  expect(JSON.parse(scriptTags(contact).find((tag) => tag.id === "island-data-carousel")!.text)).toEqual({
    play: expect.any(String) as string,
    pause: expect.any(String) as string,
    intervalMs: 2500,
  });
});

test.each(pages.map((p) => [p.page, p.html] as const))(
  "%s holds its islands after the body only, and scripts in its head that are data or speculation rules",
  (page, html) => {
    const { head, body, afterBody } = pageAnatomy(html);
    // The React root holds the whole rendered page; nothing of it is a script.
    expect(body).toMatch(/<main\b[\s\S]*<\/main>/);
    expect(scriptTags(body).filter((tag) => tag.executable)).toEqual([]);
    // After it: each island's data, if it has any, then its module; nothing else.
    expect(afterBody).toMatch(
      /^(?:(?:<script id="island-data-[a-z-]+" type="application\/json">[^<]*<\/script>)?<script type="module" src="\/islands\/[^"]+" async="" data-island="[a-z-]+"><\/script>)*$/,
    );
    expect(scriptTags(head).map((tag) => tag.type)).toEqual(
      expect.arrayContaining(["speculationrules"]) as unknown as string[],
    );
    for (const tag of scriptTags(head)) expect(["speculationrules", "application/ld+json"]).toContain(tag.type);
  },
);

const before = process.env.PAGES_BEFORE;
(before ? test.each : test.skip.each)(pages.map((p) => [p.page, p.html] as const))(
  "%s has the same head but for scripts and preloads, and the same body, as the build in PAGES_BEFORE",
  (page, html) => {
    const earlier = fs.readFileSync(path.join(before!, page), "utf8");
    const withoutScripts = (part: string) =>
      part
        .replace(/<script\b(?![^>]*type="(?:application\/ld\+json|speculationrules)")[^>]*>[\s\S]*?<\/script>/g, "")
        .replace(/<link[^>]*\brel="(?:preload|prefetch|modulepreload)"[^>]*\bas="(?:script|fetch)"[^>]*\/?>/g, "")
        .replace(/<link[^>]*\bas="(?:script|fetch)"[^>]*\brel="(?:preload|prefetch|modulepreload)"[^>]*\/?>/g, "");
    expect(pageAnatomy(html).body).toBe(pageAnatomy(earlier).body);
    expect(withoutScripts(pageAnatomy(html).head)).toBe(withoutScripts(pageAnatomy(earlier).head));
  },
);

test.each(pages.map((p) => [p.page, p.html] as const))(
  "%s has one set of speculation rules: valid JSON, the site's pages prefetched on hover or press, the menu's prerendered sooner",
  (page, html) => {
    const rules = speculationRules(html);
    expect(rules).toHaveLength(1);
    const parsed = JSON.parse(rules[0]!) as typeof SPECULATION_RULES;
    expect(parsed).toEqual(SPECULATION_RULES);
    expect(Object.keys(parsed).sort()).toEqual(["prefetch", "prerender"]);
    // Prefetch on a pointer resting on a link or pressing it; the menu's prerender sooner, but never
    // for every menu link as the page loads ("immediate").
    expect(parsed.prefetch.map((rule) => rule.eagerness)).toEqual(["moderate"]);
    expect(parsed.prerender.map((rule) => rule.eagerness)).toEqual(["eager"]);
    for (const rule of [...parsed.prefetch, ...parsed.prerender]) {
      expect(rule).toMatchObject({ source: "document" });
      // Same-origin pages only (the studio and the inbox are linked from no visitor's page).
      expect(JSON.stringify(rule.where)).toContain('{"href_matches":"/*"}');
    }
    expect(JSON.stringify(parsed.prerender[0]!.where)).toContain('"selector_matches":"header nav a"');
  },
);

test("the prerender rule's selector finds the main menu's links", () => {
  const header = /<header[\s\S]*?<\/header>/.exec(htmlOf("/aboutus"))![0];
  const nav = /<nav aria-label="Main"[\s\S]*?<\/nav>/.exec(header);
  expect(nav).not.toBeNull();
  const links = [...nav![0].matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]);
  for (const route of ["/home", "/aboutus", "/services", "/contact"]) expect(links).toContain(route);
});
