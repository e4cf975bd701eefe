/**
 * @jest-environment node
 *
 * Each built page carries exactly the scripts of what it does in the browser (docs/performance.md,
 * "Pages without behaviour ship no script"): a page that shows a carousel, the enquiry form or the
 * map keeps Gatsby's scripts; every other page has no script at all, no preload or prefetch of a
 * script or of Gatsby's data, and still its whole body. Every page has the same speculation rules.
 *
 * What a page does is read here from what its HTML shows (a carousel, a form, a map frame), not from
 * the components' registry (src/hooks/use-behaviour.ts) that decided it: a component that needs a
 * script but forgot to say so fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { builtPages } from "../../plugins/gatsby-plugin-cyrus-performance/src/pages";
import { SPECULATION_RULES } from "../../src/utils/speculation-rules";
import { routes } from "../support/content";
import { projectRoot } from "../support/serve";
import { pageAnatomy, scriptTags, shownBehaviours, speculationRules } from "../support/page-scripts";

const publicDir = path.join(projectRoot, "public");
const pages = builtPages(publicDir, path.join(projectRoot, "static")).map((file) => ({
  page: path.relative(publicDir, file),
  html: fs.readFileSync(file, "utf8"),
}));
const routeFile = (route: string) => (route === "/" ? "index.html" : `${route.slice(1)}/index.html`);
const htmlOf = (route: string) => pages.find((p) => p.page === routeFile(route))!.html;

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
  "%s carries Gatsby's scripts exactly when it shows something that needs them",
  (page, html) => {
    const executable = scriptTags(html).filter((tag) => tag.executable);
    if (shownBehaviours(html).length > 0) {
      // Today's scripts, as before: the page path, the chunk map, the compilation hash and the loader.
      expect(executable.map((tag) => tag.id)).toEqual([
        "gatsby-script-loader",
        "gatsby-chunk-mapping",
        undefined,
        "gatsby-scripts-after-paint",
      ]);
      return;
    }
    expect(executable.map((tag) => tag.open)).toEqual([]);
    // Nothing that makes the browser fetch a script or Gatsby's data, by any tag.
    expect(html).not.toMatch(/<link[^>]*\brel="[^"]*\b(preload|prefetch|modulepreload)\b/);
    expect(html).not.toMatch(/\.js["?]/);
    expect(html).not.toMatch(/page-data|app-data\.json|\/static\/d\//);
    expect(html).not.toContain("slice-start");
  },
);

test.each(pages.map((p) => [p.page, p.html] as const))(
  "%s differs from a page with Gatsby's scripts only after its body and in its head's scripts",
  (page, html) => {
    const { head, body, afterBody } = pageAnatomy(html);
    // The React root holds the whole rendered page, scripts or not; nothing of it is a script.
    expect(body).toMatch(/<main\b[\s\S]*<\/main>/);
    expect(scriptTags(body).filter((tag) => tag.executable)).toEqual([]);
    if (shownBehaviours(html).length > 0) {
      expect(afterBody).toMatch(
        /^<script id="gatsby-script-loader">[\s\S]*<!-- slice-start id="_gatsby-scripts-1" -->[\s\S]*<!-- slice-end id="_gatsby-scripts-1" -->$/,
      );
    } else {
      expect(afterBody).toBe("");
    }
    // The head's scripts: the speculation rules, and data for crawlers (JSON-LD) where the page has it.
    expect(scriptTags(head).map((tag) => tag.type)).toEqual(
      expect.arrayContaining(["speculationrules"]) as unknown as string[],
    );
    for (const tag of scriptTags(head)) expect(["speculationrules", "application/ld+json"]).toContain(tag.type);
  },
);

test.each(pages.map((p) => [p.page, p.html] as const))(
  "%s has one set of speculation rules: valid JSON, the site's pages prefetched on hover or press, the menu's prerendered",
  (page, html) => {
    const rules = speculationRules(html);
    expect(rules).toHaveLength(1);
    const parsed = JSON.parse(rules[0]!) as typeof SPECULATION_RULES;
    expect(parsed).toEqual(SPECULATION_RULES);
    expect(Object.keys(parsed).sort()).toEqual(["prefetch", "prerender"]);
    for (const rule of [...parsed.prefetch, ...parsed.prerender]) {
      expect(rule).toMatchObject({ source: "document", eagerness: "moderate" });
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
