/**
 * @jest-environment node
 *
 * The compile hint on the scripts pages load first, as webpack.stats.json lists them; a stats file
 * not as Gatsby 5.16.1 writes it stops the build.
 */
import fs from "node:fs";
import path from "node:path";
import { COMPILE_HINT, addCompileHints, readStats, scriptsLoadedFirst, withCompileHint } from "../src/compile-hints";
import { type Site, makeSite } from "./fixture";

test("the compile hint goes first in a script, once", () => {
  const hinted = withCompileHint("(self.webpackChunkx=self.webpackChunkx||[]).push([[1],{}]);");
  expect(hinted).toBe("//# allFunctionsCalledOnLoad\n(self.webpackChunkx=self.webpackChunkx||[]).push([[1],{}]);");
  expect(hinted!.startsWith(COMPILE_HINT)).toBe(true);
  expect(withCompileHint(hinted!)).toBeNull();
});

test("the hinted scripts are the app's and the page components' chunk groups, not chunks loaded on demand", () => {
  const stats = {
    namedChunkGroups: {
      app: { assets: [{ name: "webpack-runtime-1.js" }, { name: "framework-2.js" }, { name: "app-3.js" }] },
      "component---src-pages-home-tsx": {
        assets: [{ name: "styles.css" }, { name: "shared-4.js" }, { name: "component---src-pages-home-tsx-5.js" }],
      },
      "component---src-templates-service-tsx": {
        assets: ["shared-4.js", "component---src-templates-service-tsx-6.js"],
      },
      "lazy-chart": { assets: [{ name: "chart-7.js" }] },
    },
  };
  expect(scriptsLoadedFirst(stats)).toEqual([
    "app-3.js",
    "component---src-pages-home-tsx-5.js",
    "component---src-templates-service-tsx-6.js",
    "framework-2.js",
    "shared-4.js",
    "webpack-runtime-1.js",
  ]);
});

test("stats without an app group or without page component groups stop the build", () => {
  expect(() => scriptsLoadedFirst({})).toThrow(
    /public\/webpack\.stats\.json and its named chunk groups .*has changed: webpack\.stats\.json has no "app" chunk group/,
  );
  expect(() => scriptsLoadedFirst({ namedChunkGroups: { app: { assets: ["app-3.js"] } } })).toThrow(
    /has no "component---…" chunk group/,
  );
});

describe("on public/", () => {
  let site: Site;
  beforeEach(() => {
    site = makeSite();
  });
  afterEach(() => site.cleanUp());

  test("adds the hint to each script once; a second run adds none", () => {
    expect(addCompileHints(site.publicDir)).toEqual({ scripts: 4, added: 4 });
    for (const script of [
      "webpack-runtime-1.js",
      "framework-2.js",
      "app-3.js",
      "component---src-pages-home-tsx-5.js",
    ]) {
      expect(site.read(script).startsWith(COMPILE_HINT)).toBe(true);
    }
    expect(site.read("component---src-pages-home-tsx-4.css")).not.toContain(COMPILE_HINT);
    expect(addCompileHints(site.publicDir)).toEqual({ scripts: 4, added: 0 });
  });

  test("a missing stats file stops the build, naming it", () => {
    fs.rmSync(path.join(site.publicDir, "webpack.stats.json"));
    expect(() => readStats(site.publicDir)).toThrow(
      /gatsby-plugin-cyrus-performance: public\/webpack\.stats\.json and its named chunk groups \(checked on Gatsby 5\.16\.1\) has changed: public\/webpack\.stats\.json is missing after the build/,
    );
  });

  test("a stats file without namedChunkGroups, or not JSON, stops the build", () => {
    site.write("webpack.stats.json", JSON.stringify({ assetsByChunkName: {} }));
    expect(() => readStats(site.publicDir)).toThrow(/webpack\.stats\.json has no namedChunkGroups object/);
    site.write("webpack.stats.json", "{");
    expect(() => readStats(site.publicDir)).toThrow(/webpack\.stats\.json is not JSON/);
  });

  test("a script the stats name but public/ lacks stops the build", () => {
    fs.rmSync(path.join(site.publicDir, "framework-2.js"));
    expect(() => addCompileHints(site.publicDir)).toThrow(
      /webpack\.stats\.json names framework-2\.js, which is not in public\//,
    );
  });
});
