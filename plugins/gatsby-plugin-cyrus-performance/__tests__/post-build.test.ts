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
  ]);
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
