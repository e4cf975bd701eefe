/**
 * @jest-environment node
 *
 * The plugin's onPostBuild check: a build whose pages load only their islands passes; a page that
 * loads anything of Gatsby's runtime (its scripts, the slice, a preload of a script or of its data),
 * as after a Gatsby upgrade that wrote them where gatsby-ssr.tsx no longer finds them, stops it.
 */
import fs from "node:fs";
import path from "node:path";
import { postBuild } from "../src/post-build";
import { runtimeIn } from "../src/islands-only";
import { gatsbyPage, islandPage, PAGE_PATH_SCRIPT, type Site, makeSite, scriptFreePage } from "./fixture";

let site: Site;
beforeEach(() => {
  site = makeSite();
});
afterEach(() => site.cleanUp());

const reporter = () => ({ info: jest.fn(), panicOnBuild: jest.fn() });

test("pages without script and a page with its island pass, and are counted", () => {
  const log = reporter();
  postBuild(log, site);
  expect(log.panicOnBuild).not.toHaveBeenCalled();
  expect(log.info.mock.calls.map(([message]) => message)).toEqual([
    "No page loads Gatsby's runtime: 2 of 3 pages run no script, 1 only their islands",
    "Gatsby's browser bundles, which no page loads, left public/: 0 files, 0.0 KB",
  ]);
});

/** Every file under public/, as paths from it. */
const filesOf = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();

describe("Gatsby's browser bundles, which no page loads, leave public/", () => {
  /**
   * What Gatsby 5.16.1's build writes beside the pages (names as in a build of the site), this build's and an earlier
   * one's.
   */
  const GATSBY_WRITES = [
    "webpack-runtime-0cc9cd6552ac74d33b4e.js",
    "webpack-runtime-1ff60fe7417124afc292.js",
    "framework-c0db12acca394ba5b9a2.js",
    "framework-c0db12acca394ba5b9a2.js.LICENSE.txt",
    "app-35e4adf467ed695053da.js",
    "app-35e4adf467ed695053da.js.map",
    "component---src-pages-home-tsx-a3b26bb073039aa912c0.js",
    "454-ce85aa23f750752c3806.js",
    "454-ce85aa23f750752c3806.js.br",
    "webpack.stats.json",
    "chunk-map.json",
    "~partytown/partytown.js",
    "~partytown/debug/partytown-sw.js",
  ];
  /** What stays: pages, their islands, Gatsby's page data and slice, the studio, a file of the site's static/. */
  const KEPT = [
    "404.html",
    "_gatsby/slices/_gatsby-scripts-1.html",
    "aboutus/index.html",
    "admin/index.html",
    "admin/studio.js",
    "home/index.html",
    "islands/carousel-ABC.js",
    "page-data/app-data.json",
    "page-data/home/page-data.json",
    "page-data/sq/d/123.json",
    "styles.e06e25277dec67e42400.css",
    "verify-site.js",
  ];

  beforeEach(() => {
    for (const file of GATSBY_WRITES) site.write(file, "x".repeat(100));
    // The studio: its page is the site's static/admin/index.html, its bundle written beside it.
    const studioPage = '<!doctype html><script src="/admin/studio.js"></script>';
    site.write("admin/index.html", studioPage);
    fs.mkdirSync(path.join(site.siteStaticDir, "admin"));
    fs.writeFileSync(path.join(site.siteStaticDir, "admin/index.html"), studioPage);
    site.write("admin/studio.js", "studio();");
    for (const file of ["page-data/app-data.json", "page-data/home/page-data.json", "page-data/sq/d/123.json"])
      site.write(file, "{}");
    site.write("styles.e06e25277dec67e42400.css", "body{}");
    site.write("verify-site.js", "// copied from the site's static/");
    fs.writeFileSync(path.join(site.siteStaticDir, "verify-site.js"), "// copied from the site's static/");
  });

  test("webpack's bundles and their maps, licences and compressed copies, its stats and chunk map, Partytown's library", () => {
    const log = reporter();
    postBuild(log, site);
    expect(log.panicOnBuild).not.toHaveBeenCalled();
    expect(filesOf(site.publicDir)).toEqual(KEPT);
    expect(log.info).toHaveBeenLastCalledWith(
      `Gatsby's browser bundles, which no page loads, left public/: ${GATSBY_WRITES.length} files, ${((GATSBY_WRITES.length * 100) / 1024).toFixed(1)} KB`,
    );
  });

  test("nothing is removed when a page loads Gatsby's runtime: the build stops first", () => {
    site.write("contact/index.html", gatsbyPage("Contact"));
    const log = reporter();
    postBuild(log, site);
    expect(log.panicOnBuild).toHaveBeenCalledTimes(1);
    expect(filesOf(site.publicDir)).toEqual(expect.arrayContaining(GATSBY_WRITES));
  });

  test.each([
    ["in a folder of its own", "_gatsby/runtime-1.js"],
    ["an ES module", "chunks/app.mjs"],
    ["an island no page loads", "islands/map-XYZ.js"],
  ])("a script no page loads left elsewhere (%s) stops the build, named", (_, file) => {
    site.write(file, "x();");
    const log = reporter();
    postBuild(log, site);
    expect(log.panicOnBuild).toHaveBeenCalledTimes(1);
    expect(String(log.panicOnBuild.mock.calls[0]![0])).toMatch(
      new RegExp(
        `^gatsby-plugin-cyrus-performance: Gatsby's browser bundles in public/, removed after the build \\(checked on Gatsby 5\\.16\\.1\\) has changed: public/ holds scripts that no page loads: ${file.replace(/\./g, "\\.")}\\.`,
      ),
    );
  });
});

const stops = (html: string, found: RegExp) => {
  site.write("contact/index.html", html);
  const log = reporter();
  postBuild(log, site);
  expect(log.info).not.toHaveBeenCalled();
  expect(log.panicOnBuild).toHaveBeenCalledTimes(1);
  const message = String(log.panicOnBuild.mock.calls[0]![0]);
  expect(message).toMatch(
    /^gatsby-plugin-cyrus-performance: Gatsby's scripts after the body, in `onPreRenderHTML` \(checked on Gatsby 5\.16\.1\) has changed: public\/contact\/index\.html loads more than its islands: /,
  );
  expect(message).toMatch(found);
  expect(message).toMatch(/README\.md explains each assumption/);
};

test("a page as Gatsby writes it, with its runtime, stops the build, naming the page and its scripts", () => {
  stops(gatsbyPage("Contact"), /<script id="gatsby-script-loader">.*Gatsby's scripts slice/);
});

test.each([
  ["an inline script", scriptFreePage("Contact").replace("</body>", "<script>go()</script></body>"), /<script>/],
  [
    "a classic script of the site",
    scriptFreePage("C").replace("</body>", '<script src="/app-3.js"></script></body>'),
    /app-3/,
  ],
  [
    "a module from outside the islands",
    scriptFreePage("C").replace("</body>", '<script type="module" src="/framework-2.js"></script></body>'),
    /framework-2/,
  ],
  [
    "an island's tag with code inside",
    islandPage("C").replace('data-island="carousel"></script>', 'data-island="carousel">go()</script>'),
    /carousel-ABC/,
  ],
  [
    "a preload of a script",
    scriptFreePage("C").replace("</head>", '<link rel="preload" as="script" href="/x.js"></head>'),
    /x\.js/,
  ],
  [
    "a preload of page data",
    scriptFreePage("C").replace("</head>", '<link rel="preload" as="fetch" href="/page-data/c/page-data.json"></head>'),
    /page-data/,
  ],
  [
    "a module preload",
    scriptFreePage("C").replace("</head>", '<link rel="modulepreload" href="/m.mjs"></head>'),
    /m\.mjs/,
  ],
  [
    "the page-path script alone",
    scriptFreePage("C").replace("</body>", `${PAGE_PATH_SCRIPT}</body>`),
    /gatsby-script-loader/,
  ],
])("%s stops the build", (_, html, found) => stops(html, found));

test("data scripts, speculation rules and links that fetch no script or data are not code", () => {
  const html = islandPage("Home").replace(
    "</head>",
    '<link rel="preload" as="image" href="/a.webp"><link rel="icon" href="/i.png"><link rel="canonical" href="https://x/"></head>',
  );
  expect(runtimeIn(html)).toEqual([]);
});

test("a public/ without any page stops the build", () => {
  const empty = makeSite();
  try {
    for (const file of ["home/index.html", "aboutus/index.html", "404.html"])
      fs.rmSync(path.join(empty.publicDir, file));
    const log = reporter();
    postBuild(log, empty);
    expect(log.panicOnBuild).toHaveBeenCalledWith(expect.stringMatching(/public\/ holds no page/));
  } finally {
    empty.cleanUp();
  }
});
