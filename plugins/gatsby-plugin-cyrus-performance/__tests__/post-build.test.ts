/**
 * @jest-environment node
 *
 * The plugin's onPostBuild work in order (loader, compile hints, checks, precompressed copies last),
 * and a broken assumption stopping it before anything is precompressed.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { COMPILE_HINT } from "../src/compile-hints";
import { postBuild } from "../src/post-build";
import { loaderScript } from "../src/scripts-after-paint";
import { FIRST_SCRIPTS, type Site, makeSite } from "./fixture";

let site: Site;
beforeEach(() => {
  site = makeSite();
});
afterEach(() => site.cleanUp());

const reporter = () => ({ info: jest.fn(), panicOnBuild: jest.fn() });

test("the copies are made last, from the pages and scripts as the other steps left them", async () => {
  const log = reporter();
  await postBuild(log, site);
  expect(log.panicOnBuild).not.toHaveBeenCalled();
  expect(log.info.mock.calls.map(([message]) => message)).toEqual([
    "Scripts load after the first paint in 3 pages (3 rewritten now)",
    "Compile hint on the 4 scripts pages load first (4 added now)",
    expect.stringMatching(/^Precompressed \d+ text files \(\d+ changed, 0 stale copies removed\)/),
  ]);
  const home = path.join(site.publicDir, "home/index.html");
  const html = zlib.gunzipSync(fs.readFileSync(`${home}.gz`)).toString();
  expect(html).toBe(fs.readFileSync(home, "utf8"));
  expect(html).toContain(loaderScript(FIRST_SCRIPTS, "webpackChunkcyrus_website"));
  const framework = path.join(site.publicDir, "framework-2.js");
  expect(
    zlib
      .brotliDecompressSync(fs.readFileSync(`${framework}.br`))
      .toString()
      .startsWith(COMPILE_HINT),
  ).toBe(true);

  const again = reporter();
  await postBuild(again, site);
  expect(again.info.mock.calls.map(([message]) => message).slice(0, 2)).toEqual([
    "Scripts load after the first paint in 3 pages (0 rewritten now)",
    "Compile hint on the 4 scripts pages load first (0 added now)",
  ]);
  expect(again.info.mock.calls[2]![0]).toMatch(/\(0 changed, 0 stale copies removed\)/);
});

test("a page without Gatsby's scripts slice stops the build through panicOnBuild, naming the slice and the page; nothing is precompressed", async () => {
  site.write("aboutus/index.html", '<html><body><div id="gatsby-focus-wrapper"><p>About</p></div></body></html>');
  const log = reporter();
  await postBuild(log, site);
  expect(log.panicOnBuild).toHaveBeenCalledTimes(1);
  expect(log.panicOnBuild.mock.calls[0]![0]).toMatch(
    /^gatsby-plugin-cyrus-performance: The `_gatsby-scripts-1` slice in every page \(checked on Gatsby 5\.16\.1\) has changed: public\/aboutus\/index\.html has no <!-- slice-start id="_gatsby-scripts-1" -->.*adapt src\/scripts-after-paint\.ts.*README\.md explains each assumption/,
  );
  expect(fs.existsSync(site.cacheFile)).toBe(false);
  expect(fs.readdirSync(site.publicDir).filter((file) => file.endsWith(".gz"))).toEqual([]);
});

test("a stats file without namedChunkGroups stops the build before precompression", async () => {
  site.write("webpack.stats.json", "{}");
  const log = reporter();
  await postBuild(log, site);
  expect(log.panicOnBuild).toHaveBeenCalledWith(
    expect.stringMatching(/webpack\.stats\.json has no namedChunkGroups object/),
  );
  expect(fs.existsSync(site.cacheFile)).toBe(false);
});
