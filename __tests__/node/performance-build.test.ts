/**
 * @jest-environment node
 */
import vm from "node:vm";
import { chunkGlobalOf, deferFirstScripts, loaderScript } from "../../src/node/scripts-after-paint";
import { onCreateWebpackConfig } from "../../src/node/webpack";
import { COMPILE_HINT, scriptsLoadedFirst, withCompileHint } from "../../src/node/compile-hints";

const slice = (inner: string) =>
  `<html><body><div id="___gatsby"></div><!-- slice-start id="_gatsby-scripts-1" -->` +
  `<script>window.___webpackCompilationHash="abc";</script>${inner}<!-- slice-end id="_gatsby-scripts-1" --></body></html>`;
const gatsbyScripts =
  '<script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>';

test("the first scripts are replaced by one loader that adds them in order, and nothing else changes", () => {
  const html = deferFirstScripts(slice(gatsbyScripts));
  expect(html).not.toBeNull();
  expect(html).not.toContain("<script src=");
  expect(html).toContain('window.___webpackCompilationHash="abc"');
  expect(html).toContain(loaderScript(["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"]));
  expect(html!.indexOf("gatsby-scripts-after-paint")).toBeLessThan(html!.indexOf('<!-- slice-end id="_gatsby-scripts-1" -->'));
});

test("a page already rewritten, or without Gatsby's scripts slice, is left alone", () => {
  const once = deferFirstScripts(slice(gatsbyScripts))!;
  expect(deferFirstScripts(once)).toBeNull();
  expect(deferFirstScripts(`<html><body>${gatsbyScripts}</body></html>`)).toBeNull();
});

test("a page holding a loader from an earlier build gets the current one, for the same scripts", () => {
  const sources = ["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"];
  const older = slice(
    `<script id="gatsby-scripts-after-paint">(function(s,g){/* older */}).apply(null,${JSON.stringify([sources, null])})</script>`,
  );
  const html = deferFirstScripts(older, "webpackChunksite");
  expect(html).not.toBeNull();
  expect(html).not.toContain("/* older */");
  expect(html).toContain(loaderScript(sources, "webpackChunksite"));
  expect(html!.match(/gatsby-scripts-after-paint/g)).toHaveLength(1);
  expect(html).toContain('window.___webpackCompilationHash="abc"');
  expect(deferFirstScripts(html!, "webpackChunksite")).toBeNull();
});

/** Runs the loader in a fake page; returns what it added and the hooks to drive it. */
function runLoader(sources: string[], chunkGlobal: string | null, self: Record<string, unknown> = {}) {
  type Added = { src: string; async: boolean; onload?: () => void; onerror?: () => void };
  const added: Added[] = [];
  const preloaded: Array<{ rel: string; as: string; href: string }> = [];
  const frames: Array<() => void> = [];
  const timers: Array<() => void> = [];
  const listeners: Record<string, () => void> = {};
  const window = {
    requestAnimationFrame: (f: () => void) => frames.push(f),
    addEventListener: (name: string, f: () => void) => (listeners[name] = f),
  };
  const document = {
    createElement: (tag: string) => (tag === "script" ? { src: "", async: false } : { rel: "", as: "", href: "" }),
    body: { appendChild: (e: Added) => added.push(e) },
    head: { appendChild: (e: { rel: string; as: string; href: string }) => preloaded.push(e) },
  };
  const code = loaderScript(sources, chunkGlobal).replace(/^<script[^>]*>|<\/script>$/g, "");
  vm.runInNewContext(code, { window, document, self, requestAnimationFrame: window.requestAnimationFrame, setTimeout: (f: () => void) => timers.push(f) });
  const runTimers = () => timers.splice(0).forEach((f) => f());
  // Runs the tasks queued until none is left (bounded: the loader queues a handful).
  const settle = () => {
    for (let i = 0; i < 20 && timers.length > 0; i += 1) runTimers();
  };
  return { added, preloaded, frames, listeners, runTimers, settle };
}

test("the loader preloads every script after the first frame, then runs them one by one in order", () => {
  const page = runLoader(["/a.js", "/b.js", "/c.js"], null);
  expect(page.added).toHaveLength(0); // nothing before the first frame
  page.frames.forEach((f) => f());
  page.runTimers();
  // One preload per task, all before the first script is added.
  expect(page.preloaded.map((e) => e.href)).toEqual(["/a.js"]);
  page.runTimers();
  expect(page.preloaded.map((e) => e.href)).toEqual(["/a.js", "/b.js"]);
  page.runTimers();
  expect(page.added).toHaveLength(0);
  expect(page.preloaded).toEqual([
    { rel: "preload", as: "script", href: "/a.js" },
    { rel: "preload", as: "script", href: "/b.js" },
    { rel: "preload", as: "script", href: "/c.js" },
  ]);
  page.runTimers();
  expect(page.added.map((e) => e.src)).toEqual(["/a.js"]);
  expect(page.added[0]!.async).toBe(true);
  page.added[0]!.onload!();
  page.runTimers(); // the next script starts in a later task
  expect(page.added.map((e) => e.src)).toEqual(["/a.js", "/b.js"]);
  page.added[1]!.onerror!(); // a failed script does not stop the rest (webpack reports the failure)
  page.runTimers();
  expect(page.added.map((e) => e.src)).toEqual(["/a.js", "/b.js", "/c.js"]);
  page.listeners.load?.();
  page.settle();
  expect(page.added).toHaveLength(3);
  expect(page.preloaded).toHaveLength(3);
});

test("the loader starts at the load event when no frame is painted first, and only once", () => {
  const page = runLoader(["/a.js"], null);
  page.listeners.load?.();
  page.frames.forEach((f) => f());
  page.settle();
  expect(page.added.map((e) => e.src)).toEqual(["/a.js"]);
  expect(page.preloaded.map((e) => e.href)).toEqual(["/a.js"]);
});

test("before the last script, the modules already registered are initialised in a task of their own", () => {
  const ran: string[] = [];
  const pushed: unknown[][] = [];
  const require = (id: string) => ran.push(id);
  // webpack's chunk queue after the framework chunk: its push runs a chunk's callback with require.
  const queue = Object.assign([[[593], { 961: () => 0, 5338: () => 0 }]], {
    push: (chunk: [unknown[], object, (r: typeof require) => void]) => {
      pushed.push(chunk[0]);
      chunk[2](require);
    },
  });
  const page = runLoader(["/runtime.js", "/framework.js", "/app.js"], "webpackChunkcyrus_website", { webpackChunkcyrus_website: queue });
  page.frames.forEach((f) => f());
  page.settle();
  page.added[0]!.onload!();
  page.runTimers();
  expect(ran).toEqual([]); // not after the runtime
  page.added[1]!.onload!();
  page.runTimers();
  expect(pushed).toEqual([["after-paint"]]);
  expect(ran).toEqual(["961", "5338"]);
  expect(page.added.map((e) => e.src)).toEqual(["/runtime.js", "/framework.js", "/app.js"]);
});

test("the chunk queue's name is read from webpack's runtime", () => {
  expect(chunkGlobalOf("n=self.webpackChunkcyrus_website=self.webpackChunkcyrus_website||[]")).toBe("webpackChunkcyrus_website");
  expect(chunkGlobalOf("no queue here")).toBeNull();
});

test("the loader cannot be broken out of by a script address", () => {
  expect(loaderScript(["/x.js</script><script>alert(1)//"])).not.toMatch(/<\/script>.*<\/script>/s);
});

describe("the production browser bundle's webpack config", () => {
  const cssModule = { type: "css/mini-extract" };
  const jsModule = { type: "javascript/auto" };
  const gatsbyConfig = () => ({
    devtool: "source-map",
    optimization: {
      splitChunks: {
        cacheGroups: {
          styles: { name: "styles", test: (m: { type: string }) => m.type === "css/mini-extract", enforce: true },
          commons: { name: "commons", minChunks: 9 },
          framework: { name: "framework", test: /react/ },
        },
      },
    },
  });
  const run = (stage: string, config = gatsbyConfig()) => {
    const replaceWebpackConfig = jest.fn();
    const setWebpackConfig = jest.fn();
    const normalModuleReplacement = jest.fn((pattern: RegExp, replacement: (data: unknown) => void) => ({ pattern, replacement }));
    (onCreateWebpackConfig as (args: unknown) => void)({
      stage,
      getConfig: () => config,
      actions: { replaceWebpackConfig, setWebpackConfig },
      plugins: { normalModuleReplacement },
    });
    return { replaceWebpackConfig, setWebpackConfig, config };
  };

  test("has no source maps", () => {
    const { replaceWebpackConfig } = run("build-javascript");
    expect(replaceWebpackConfig).toHaveBeenCalledTimes(1);
    expect(replaceWebpackConfig.mock.calls[0][0].devtool).toBe(false);
  });

  test("keeps CSS in the page chunks that import it: no site-wide styles chunk, no CSS in commons", () => {
    const groups = run("build-javascript").replaceWebpackConfig.mock.calls[0][0].optimization.splitChunks.cacheGroups;
    expect(groups.styles).toBe(false);
    expect(groups.commons.test(cssModule)).toBe(false);
    expect(groups.commons.test(jsModule)).toBe(true);
    expect(groups.commons.minChunks).toBe(9);
    expect(groups.framework.test).toEqual(/react/);
  });

  test("a test of Gatsby's own on the commons group still decides for JavaScript", () => {
    const config = gatsbyConfig();
    Object.assign(config.optimization.splitChunks.cacheGroups.commons, { test: (m: { type: string }) => m.type === "javascript/esm" });
    const groups = run("build-javascript", config).replaceWebpackConfig.mock.calls[0][0].optimization.splitChunks.cacheGroups;
    expect(groups.commons.test(jsModule)).toBe(false);
    expect(groups.commons.test({ type: "javascript/esm" })).toBe(true);
    expect(groups.commons.test(cssModule)).toBe(false);
  });

  test("is the only stage changed, but for Node's deprecated punycode module in the HTML renderer", () => {
    const unchanged = run("develop");
    expect(unchanged.replaceWebpackConfig).not.toHaveBeenCalled();
    expect(unchanged.setWebpackConfig).not.toHaveBeenCalled();
    for (const stage of ["build-html", "develop-html"]) {
      const { replaceWebpackConfig, setWebpackConfig, config } = run(stage);
      expect(replaceWebpackConfig).not.toHaveBeenCalled();
      expect(setWebpackConfig).toHaveBeenCalledTimes(1);
      const [plugin] = setWebpackConfig.mock.calls[0][0].plugins;
      expect(plugin.pattern).toEqual(/^punycode$/);
      // Both the request and the dependency's own (which Gatsby's externals read) name the package.
      const data = { request: "punycode", dependencies: [{ request: "punycode" }] };
      plugin.replacement(data);
      expect(data).toEqual({ request: "punycode/", dependencies: [{ request: "punycode/" }] });
      expect(config).toEqual(expect.objectContaining({ devtool: "source-map" }));
    }
  });
});

test("the compile hint goes first in a script, once", () => {
  const hinted = withCompileHint('(self.webpackChunkx=self.webpackChunkx||[]).push([[1],{}]);');
  expect(hinted).toBe('//# allFunctionsCalledOnLoad\n(self.webpackChunkx=self.webpackChunkx||[]).push([[1],{}]);');
  expect(hinted!.startsWith(COMPILE_HINT)).toBe(true);
  expect(withCompileHint(hinted!)).toBeNull();
});

test("the hinted scripts are the app's and the page components' chunk groups, not chunks loaded on demand", () => {
  const stats = {
    namedChunkGroups: {
      app: { assets: [{ name: "webpack-runtime-1.js" }, { name: "framework-2.js" }, { name: "app-3.js" }] },
      "component---src-pages-home-tsx": { assets: [{ name: "styles.css" }, { name: "shared-4.js" }, { name: "component---src-pages-home-tsx-5.js" }] },
      "component---src-templates-service-tsx": { assets: ["shared-4.js", "component---src-templates-service-tsx-6.js"] },
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
  expect(scriptsLoadedFirst({})).toEqual([]);
});
