/**
 * The built pages' scripts, on the pages that have any (behaviour-scripts.test.ts: the others have
 * none): loaded after the first paint by the inline loader, and compiled by the browser while they
 * download (the compile hint on their first line).
 */
import fs from "node:fs";
import path from "node:path";
import { COMPILE_HINT, scriptsLoadedFirst } from "../../plugins/gatsby-plugin-cyrus-performance/src/compile-hints";
import { builtPages } from "../../plugins/gatsby-plugin-cyrus-performance/src/pages";
import { isScriptFree, loaderScript } from "../../plugins/gatsby-plugin-cyrus-performance/src/scripts-after-paint";
import { routes } from "../support/content";
import { projectRoot } from "../support/serve";

const publicDir = path.join(projectRoot, "public");
const read = (file: string) => fs.readFileSync(path.join(publicDir, file), "utf8");
const LOADER = /<script id="gatsby-scripts-after-paint">[\s\S]*?\.apply\(null,(\[[\s\S]*?\])\)<\/script>/;

test("every script a page loads first starts with the compile hint", () => {
  const scripts = scriptsLoadedFirst(JSON.parse(read("webpack.stats.json")));
  expect(scripts.some((s) => s.startsWith("framework-"))).toBe(true);
  expect(scripts.some((s) => s.startsWith("component---src-templates-service-tsx"))).toBe(true);
  const missing = scripts.filter((s) => !read(s).startsWith(COMPILE_HINT));
  expect(missing).toEqual([]);
});

test.each(["home/index.html", "contact/index.html", "whycyrus/index.html"])(
  "%s has no script tag for Gatsby's first scripts, only the loader, which names them in order",
  (page) => {
    const html = read(page);
    expect(html).not.toMatch(/<script src="\/(webpack-runtime|framework|app)-[^"]+" async>/);
    const loader = LOADER.exec(html);
    expect(loader).not.toBeNull();
    const [sources] = JSON.parse(loader![1]!) as [string[]];
    expect(sources.map((s) => s.replace(/-[0-9a-f]+\.js$/, ""))).toEqual(["/webpack-runtime", "/framework", "/app"]);
    for (const source of sources) expect(read(source).startsWith(COMPILE_HINT)).toBe(true);
  },
);

test("every page with scripts holds the loader compiled from the plugin's src/loader.ts now, also after an incremental build", () => {
  const pages = builtPages(publicDir, path.join(projectRoot, "static"));
  expect(pages.length).toBeGreaterThan(routes.length);
  const withScripts = pages.filter((page) => !isScriptFree(fs.readFileSync(page, "utf8")));
  expect(withScripts.length).toBeGreaterThanOrEqual(3);
  const stale = withScripts.filter((page) => {
    const html = fs.readFileSync(page, "utf8");
    const [sources] = JSON.parse(LOADER.exec(html)![1]!) as [string[]];
    return !html.includes(loaderScript(sources));
  });
  expect(stale).toEqual([]);
});
