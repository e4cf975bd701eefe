/**
 * The built pages' CSS: each page inlines one stylesheet holding the global rules first and then the
 * rules of the components it renders, and none of another page's components.
 */
import fs from "node:fs";
import path from "node:path";
import { routes } from "../support/content";
import { projectRoot } from "../support/serve";

const publicDir = path.join(projectRoot, "public");
const read = (file: string) => fs.readFileSync(path.join(publicDir, file), "utf8");
const htmlOf = (route: string) => read(path.join(route === "/" ? "" : route, "index.html"));

const inlineStyles = (html: string) => [...html.matchAll(/<style data-href="([^"]+)"[^>]*>([\s\S]*?)<\/style>/g)];
/** CSS Module classes (`<file>-module--<name>--<hash>`) a page's markup uses, and those its CSS defines. */
const moduleClassesIn = (html: string) => new Set(html.match(/\b[a-z-]+-module--[A-Za-z0-9_-]+--[0-9a-f]{5}\b/g) ?? []);
const modulesOf = (css: string) => new Set((css.match(/\.([a-z-]+)-module--/g) ?? []).map((m) => m.slice(1, -9)));
const routesWithLayout = routes.filter((route) => route !== "/");

test.each(routesWithLayout)(
  "%s inlines one stylesheet: global rules first, then every class its markup uses",
  (route) => {
    const html = htmlOf(route);
    const styles = inlineStyles(html);
    expect(styles).toHaveLength(1);
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
    const [, href, css] = styles[0]!;
    expect(read(href!.slice(1))).toBe(css);
    expect(css!.indexOf(":root{")).toBe(0);
    expect(css!.indexOf("body{")).toBeLessThan(css!.indexOf("-module--"));
    const body = html.slice(html.indexOf("<body"));
    const undefinedClasses = [...moduleClassesIn(body)].filter((cls) => !css!.includes(`.${cls}`));
    expect(undefinedClasses).toEqual([]);
  },
);

test("a page carries the CSS of its own components only", () => {
  const cssOf = (route: string) => modulesOf(inlineStyles(htmlOf(route))[0]![2]!);
  const contact = cssOf("/contact");
  const service = cssOf("/services/cdms");
  const home = cssOf("/home");
  for (const shared of ["site-nav", "header", "footer", "shell"]) {
    expect([contact.has(shared), service.has(shared), home.has(shared)]).toEqual([true, true, true]);
  }
  expect(contact.has("enquiry-form")).toBe(true);
  expect(service.has("enquiry-form")).toBe(false);
  expect(home.has("enquiry-form")).toBe(false);
  expect(home.has("carousel")).toBe(true);
  expect(service.has("carousel")).toBe(false);
  expect(service.has("service-view")).toBe(true);
  expect(contact.has("service-view")).toBe(false);
});

test("a service page inlines at most three quarters of the site's CSS", () => {
  const all = new Set<string>();
  for (const route of routesWithLayout)
    for (const rule of inlineStyles(htmlOf(route))[0]![2]!.split("}")) all.add(rule);
  const siteCss = [...all].join("}").length;
  expect(inlineStyles(htmlOf("/services/cdms"))[0]![2]!.length).toBeLessThan(0.75 * siteCss);
});
