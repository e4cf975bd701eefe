/**
 * @jest-environment node
 *
 * The plugin's onPostBuild work in order (loader, compile hints, checks), and a broken assumption
 * stopping it at the step that meets it.
 */
import fs from "node:fs";
import path from "node:path";
import { COMPILE_HINT } from "../src/compile-hints";
import { postBuild } from "../src/post-build";
import { loaderScript } from "../src/scripts-after-paint";
import { FIRST_SCRIPTS, PAGE_PATH_SCRIPT, type Site, makeSite, scriptFreePage } from "./fixture";

let site: Site;
beforeEach(() => {
  site = makeSite();
});
afterEach(() => site.cleanUp());

const reporter = () => ({ info: jest.fn(), panicOnBuild: jest.fn() });
const files = (dir: string): string[] =>
  fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => fs.statSync(path.join(dir, f)).isFile());

test("the loader goes into every page and the hint onto the first scripts; run again, nothing changes", () => {
  const log = reporter();
  postBuild(log, site);
  expect(log.panicOnBuild).not.toHaveBeenCalled();
  expect(log.info.mock.calls.map(([message]) => message)).toEqual([
    "Scripts load after the first paint in 3 pages (3 rewritten now); 0 pages need no script and have none",
    "Compile hint on the 4 scripts pages load first (4 added now)",
  ]);
  expect(site.read("home/index.html")).toContain(loaderScript(FIRST_SCRIPTS));
  expect(site.read("framework-2.js").startsWith(COMPILE_HINT)).toBe(true);
  // Precompression is the nginx deployment's (deploy/precompress.ts), not the build's.
  expect(files(site.publicDir).filter((file) => /\.(gz|br)$/.test(file))).toEqual([]);

  const again = reporter();
  postBuild(again, site);
  expect(again.info.mock.calls.map(([message]) => message)).toEqual([
    "Scripts load after the first paint in 3 pages (0 rewritten now); 0 pages need no script and have none",
    "Compile hint on the 4 scripts pages load first (0 added now)",
  ]);
});

test("a page without Gatsby's scripts slice stops the build through panicOnBuild, naming the slice and the page; no script is hinted", () => {
  site.write(
    "aboutus/index.html",
    `<html><body><div id="gatsby-focus-wrapper"><p>About</p></div>${PAGE_PATH_SCRIPT}</body></html>`,
  );
  const log = reporter();
  postBuild(log, site);
  expect(log.panicOnBuild).toHaveBeenCalledTimes(1);
  expect(log.panicOnBuild.mock.calls[0]![0]).toMatch(
    /^gatsby-plugin-cyrus-performance: The `_gatsby-scripts-1` slice in every page \(checked on Gatsby 5\.16\.1\) has changed: public\/aboutus\/index\.html has no <!-- slice-start id="_gatsby-scripts-1" -->.*adapt src\/scripts-after-paint\.ts.*README\.md explains each assumption/,
  );
  expect(log.info).not.toHaveBeenCalled();
  expect(site.read("framework-2.js").startsWith(COMPILE_HINT)).toBe(false);
});

test("a stats file without namedChunkGroups stops the build after the loader, before the hints", () => {
  site.write("webpack.stats.json", "{}");
  const log = reporter();
  postBuild(log, site);
  expect(log.panicOnBuild).toHaveBeenCalledWith(
    expect.stringMatching(/webpack\.stats\.json has no namedChunkGroups object/),
  );
  expect(log.info.mock.calls.map(([message]) => message)).toEqual([
    "Scripts load after the first paint in 3 pages (3 rewritten now); 0 pages need no script and have none",
  ]);
  expect(site.read("framework-2.js").startsWith(COMPILE_HINT)).toBe(false);
});

test("a page written without Gatsby's scripts is left as it is, and counted", () => {
  site.write("aboutus/index.html", scriptFreePage("About"));
  const log = reporter();
  postBuild(log, site);
  expect(log.panicOnBuild).not.toHaveBeenCalled();
  expect(log.info.mock.calls[0]![0]).toBe(
    "Scripts load after the first paint in 3 pages (3 rewritten now); 1 pages need no script and have none",
  );
  expect(site.read("aboutus/index.html")).toBe(scriptFreePage("About"));
});
