/**
 * @jest-environment node
 *
 * The built site deploys no script that no page loads: Gatsby's webpack bundles (its runtime,
 * framework, app, page components and shared chunks, with their maps and licences), its stats and
 * chunk map and Partytown's library are gone from public/ after the build (the performance plugin's
 * onPostBuild, plugins/gatsby-plugin-cyrus-performance/README.md). What Gatsby's next incremental
 * build and the release runner read stays: the page data, the static query results, app-data.json.
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../support/serve";

const publicDir = path.join(projectRoot, "public");
const staticDir = path.join(projectRoot, "static");

const files = fs
  .readdirSync(publicDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => `/${path.relative(publicDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")}`);

/** Every path from the root that an HTML file in public/ names in a src or href attribute. */
function namedByHtml(): Set<string> {
  const named = new Set<string>();
  for (const file of files.filter((f) => f.endsWith(".html"))) {
    const html = fs.readFileSync(path.join(publicDir, file), "utf8");
    for (const [, url = ""] of html.matchAll(/\s(?:src|href)=(?:"([^"]*)"|'[^']*'|[^\s>]+)/g)) {
      if (url.startsWith("/")) named.add(url.split(/[?#]/)[0]!);
    }
  }
  return named;
}

test("every script file in public/ is one a page loads (or one of the site's own static/ files)", () => {
  const named = namedByHtml();
  const scripts = files.filter((f) => /\.m?js$/.test(f) && !fs.existsSync(path.join(staticDir, f)));
  // The pages' islands and the studio's bundle, each named by its page.
  expect(scripts.some((f) => f.startsWith("/islands/"))).toBe(true);
  expect(scripts).toContain("/admin/studio.js");
  expect(scripts.filter((f) => !named.has(f))).toEqual([]);
});

test("none of Gatsby's runtime files is left: bundles, maps, licences, stats, chunk map, Partytown", () => {
  expect(
    files.filter((f) =>
      /^\/[^/]+\.js(\.map|\.LICENSE\.txt)?$|^\/(webpack\.stats|chunk-map)\.json$|^\/~partytown\//.test(f),
    ),
  ).toEqual([]);
});

test("what Gatsby's next build and the release runner read stays: page data, static query results, app data", () => {
  expect(files).toContain("/page-data/app-data.json");
  expect(files).toContain("/page-data/home/page-data.json");
  expect(files.filter((f) => f.startsWith("/page-data/sq/d/")).length).toBeGreaterThan(0);
  const appData = JSON.parse(fs.readFileSync(path.join(publicDir, "page-data/app-data.json"), "utf8")) as {
    webpackCompilationHash?: string;
  };
  // The build's id, which every page carries (gatsby-ssr.tsx) and the release runner compares.
  expect(fs.readFileSync(path.join(publicDir, "home/index.html"), "utf8")).toContain(
    `<meta name="cyrus-build" content="${appData.webpackCompilationHash}"/>`,
  );
});
