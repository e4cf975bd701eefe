/**
 * The built pages' CSS: each page inlines one stylesheet, Gatsby's site-wide one, holding the global
 * rules first and then the rules of the components, every class the page's markup uses among them.
 */
import fs from "node:fs";
import path from "node:path";
import { routes } from "../support/content";
import { projectRoot } from "../support/serve";

const publicDir = path.join(projectRoot, "public");
const read = (file: string) => fs.readFileSync(path.join(publicDir, file), "utf8");
const htmlOf = (route: string) => read(path.join(route === "/" ? "" : route, "index.html"));

const inlineStyles = (html: string) => [...html.matchAll(/<style data-href="([^"]+)"[^>]*>([\s\S]*?)<\/style>/g)];
/** CSS Module classes (`<file>-module--<name>--<hash>`) a page's markup uses. */
const moduleClassesIn = (html: string) => new Set(html.match(/\b[a-z-]+-module--[A-Za-z0-9_-]+--[0-9a-f]{5}\b/g) ?? []);
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
