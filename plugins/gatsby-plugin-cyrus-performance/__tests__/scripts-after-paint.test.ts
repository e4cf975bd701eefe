/**
 * @jest-environment node
 *
 * The first scripts after paint: the loader compiled from src/loader.ts behaves as the hand-minified
 * one it replaced, the pages get it in place of Gatsby's tags (and the current one on a rebuild),
 * and a page or runtime that is not as Gatsby 5.16.1 writes it stops the build.
 */
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { compileLoader, LOADER_SOURCE, loaderFunction } from "../src/compile-loader";
import {
  chunkGlobalOf,
  chunkQueueOfRuntime,
  deferFirstScripts,
  loadScriptsAfterPaint,
  loaderScript,
} from "../src/scripts-after-paint";
import { FIRST_SCRIPTS, RUNTIME, type Site, gatsbyPage, gatsbyScriptsSlice, makeSite } from "./fixture";

const slice = (inner: string) =>
  `<html><body><div id="___gatsby"></div><!-- slice-start id="_gatsby-scripts-1" -->` +
  `<script>window.___webpackCompilationHash="abc";</script>${inner}<!-- slice-end id="_gatsby-scripts-1" --></body></html>`;
const gatsbyScripts =
  '<script src="/webpack-runtime-1.js" async></script><script src="/framework-2.js" async></script><script src="/app-3.js" async></script>';

/** The loader pages held before it was compiled from src/loader.ts (main at 36b8495), verbatim. */
const HAND_MINIFIED =
  "(function(s,g){var d=0;function w(){var q=g&&self[g];if(!q||!q.push)return;var i=[];q.forEach(function(c){for(var k in c[1])i.push(k)});" +
  'try{q.push([["after-paint"],{},function(r){i.forEach(function(k){r(k)})}])}catch(x){}}function n(j){if(j>=s.length)return;' +
  'var e=document.createElement("script");e.src=s[j];e.async=true;e.onload=e.onerror=function(){setTimeout(function(){if(j===s.length-2)w();n(j+1)},0)};' +
  'document.body.appendChild(e)}function p(j){if(j>=s.length)return n(0);var e=document.createElement("link");e.rel="preload";e.as="script";' +
  "e.href=s[j];document.head.appendChild(e);setTimeout(function(){p(j+1)},0)}function l(){if(d)return;d=1;p(0)}" +
  'if(window.requestAnimationFrame)requestAnimationFrame(function(){setTimeout(l,0)});else setTimeout(l,0);window.addEventListener("load",l)})';
const handMinifiedScript = (sources: string[], chunkGlobal: string | null) =>
  `<script id="gatsby-scripts-after-paint">${HAND_MINIFIED}.apply(null,${JSON.stringify([sources, chunkGlobal])})</script>`;

describe("the page rewrite", () => {
  test("the first scripts are replaced by one loader that adds them in order, and nothing else changes", () => {
    const html = deferFirstScripts(slice(gatsbyScripts));
    expect(html).not.toBeNull();
    expect(html).not.toContain("<script src=");
    expect(html).toContain('window.___webpackCompilationHash="abc"');
    expect(html).toContain(loaderScript(["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"]));
    expect(html!.indexOf("gatsby-scripts-after-paint")).toBeLessThan(
      html!.indexOf('<!-- slice-end id="_gatsby-scripts-1" -->'),
    );
    expect(html!.replace(loaderScript(["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"]), "")).toBe(slice(""));
  });

  test("a page already rewritten is left alone", () => {
    const once = deferFirstScripts(slice(gatsbyScripts), "webpackChunksite")!;
    expect(deferFirstScripts(once, "webpackChunksite")).toBeNull();
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

  test("a page an incremental build left with the hand-minified loader gets the compiled one, for the same scripts", () => {
    const sources = ["/webpack-runtime-aaab.js", "/framework-c0db.js", "/app-adb5.js"];
    const html = deferFirstScripts(
      slice(handMinifiedScript(sources, "webpackChunkcyrus_website")),
      "webpackChunkcyrus_website",
    );
    expect(html).toBe(slice(loaderScript(sources, "webpackChunkcyrus_website")));
  });

  test("the loader cannot be broken out of by a script address", () => {
    expect(loaderScript(["/x.js</script><script>alert(1)//"])).not.toMatch(/<\/script>.*<\/script>/s);
  });
});

describe("a page not as Gatsby writes it stops the build", () => {
  test("without the _gatsby-scripts-1 slice, naming the slice and the page", () => {
    expect(() =>
      deferFirstScripts(`<html><body>${gatsbyScripts}</body></html>`, null, "public/home/index.html"),
    ).toThrow(
      /The `_gatsby-scripts-1` slice in every page \(checked on Gatsby 5\.16\.1\) has changed: public\/home\/index\.html has no <!-- slice-start id="_gatsby-scripts-1" -->/,
    );
  });

  test("with a slice that has no <script src=… async> tag", () => {
    expect(() =>
      deferFirstScripts(slice('<script src="/app-3.js" defer></script>'), null, "public/home/index.html"),
    ).toThrow(
      /Gatsby's `<script src=… async>` tags .*has changed: the scripts slice of public\/home\/index\.html holds no <script src="…" async><\/script> tag/,
    );
  });
});

describe("webpack's chunk queue", () => {
  test("its name is read from webpack's runtime", () => {
    expect(chunkGlobalOf("n=self.webpackChunkcyrus_website=self.webpackChunkcyrus_website||[]")).toBe(
      "webpackChunkcyrus_website",
    );
    expect(chunkGlobalOf("no queue here")).toBeNull();
    expect(chunkQueueOfRuntime(RUNTIME, "public/webpack-runtime-1.js")).toBe("webpackChunkcyrus_website");
  });

  test("a runtime without the queue, or whose push is not webpack's chunk loader, stops the build", () => {
    expect(() => chunkQueueOfRuntime("!function(){}()", "public/webpack-runtime-1.js")).toThrow(
      /webpack's chunk queue `self\.webpackChunk…` .*has changed: public\/webpack-runtime-1\.js, the first of Gatsby's scripts, names no self\.webpackChunk… queue/,
    );
    const withoutHook = RUNTIME.replace(",n.push=t.bind(null,n.push.bind(n))", "");
    expect(() => chunkQueueOfRuntime(withoutHook, "public/webpack-runtime-1.js")).toThrow(
      /does not replace the queue's push with its chunk loader/,
    );
  });
});

describe("the loader script", () => {
  test("is src/loader.ts minified into one function, no larger than the hand-minified one it replaced", () => {
    const fn = loaderFunction();
    expect(fn).toMatch(/^function [\w$]+\([\w$]+,[\w$]+\)\{/);
    expect(fn).toBe(compileLoader(fs.readFileSync(LOADER_SOURCE, "utf8")));
    expect(fn.length).toBeLessThanOrEqual(HAND_MINIFIED.length - 2);
    expect(loaderScript([], null).length).toBeLessThan(1024);
  });

  test("a loader source that is not one self-contained function does not compile", () => {
    const source = fs.readFileSync(LOADER_SOURCE, "utf8");
    expect(() => compileLoader(`${source}\nconsole.log("more");`)).toThrow(
      /must compile to one self-contained function/,
    );
    expect(() => compileLoader(`import x from "x";\n${source.replace("preload(0);", "preload(x);")}`)).toThrow(
      /must compile to one self-contained function/,
    );
    expect(() => compileLoader(source.replace("export default function", "export function"))).toThrow(
      /must compile to one self-contained function/,
    );
  });
});

/** Runs a loader in a fake page; returns what it added and the hooks to drive it. */
function runLoader(script: string, sources: string[], chunkGlobal: string | null, self: Record<string, unknown> = {}) {
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
  const code = script.replace(/^<script[^>]*>|<\/script>$/g, "");
  vm.runInNewContext(code, {
    window,
    document,
    self,
    requestAnimationFrame: window.requestAnimationFrame,
    setTimeout: (f: () => void) => timers.push(f),
  });
  const runTimers = () => timers.splice(0).forEach((f) => f());
  // Runs the tasks queued until none is left (bounded: the loader queues a handful).
  const settle = () => {
    for (let i = 0; i < 20 && timers.length > 0; i += 1) runTimers();
  };
  return { added, preloaded, frames, listeners, runTimers, settle };
}

// Each behaviour is checked on the compiled loader and on the hand-minified one it replaced.
describe.each([
  ["the loader compiled from src/loader.ts", loaderScript],
  ["the hand-minified loader it replaced", handMinifiedScript],
])("%s", (_name, script) => {
  test("preloads every script after the first frame, then runs them one by one in order", () => {
    const page = runLoader(script(["/a.js", "/b.js", "/c.js"], null), ["/a.js", "/b.js", "/c.js"], null);
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
    expect(page.added).toHaveLength(1);
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

  test("starts at the load event when no frame is painted first, and only once", () => {
    const page = runLoader(script(["/a.js"], null), ["/a.js"], null);
    page.listeners.load?.();
    page.frames.forEach((f) => f());
    page.settle();
    expect(page.added.map((e) => e.src)).toEqual(["/a.js"]);
    expect(page.preloaded.map((e) => e.href)).toEqual(["/a.js"]);
  });

  test("before the last script, the modules already registered are initialised, in the task that adds it", () => {
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
    const sources = ["/runtime.js", "/framework.js", "/app.js"];
    const page = runLoader(script(sources, "webpackChunkcyrus_website"), sources, "webpackChunkcyrus_website", {
      webpackChunkcyrus_website: queue,
    });
    page.frames.forEach((f) => f());
    page.settle();
    page.added[0]!.onload!();
    page.runTimers();
    expect(ran).toEqual([]); // not after the runtime
    page.added[1]!.onload!();
    expect(pushed).toEqual([]); // not in the script's load event itself
    page.runTimers();
    expect(pushed).toEqual([["after-paint"]]);
    expect(ran).toEqual(["961", "5338"]);
    expect(page.added.map((e) => e.src)).toEqual(["/runtime.js", "/framework.js", "/app.js"]);
  });

  test("a chunk queue whose push throws does not stop the last script", () => {
    const queue = Object.assign([], {
      push: () => {
        throw new Error("webpack changed");
      },
    });
    const sources = ["/runtime.js", "/framework.js", "/app.js"];
    const page = runLoader(script(sources, "webpackChunkx"), sources, "webpackChunkx", { webpackChunkx: queue });
    page.frames.forEach((f) => f());
    page.settle();
    page.added[0]!.onload!();
    page.runTimers();
    page.added[1]!.onload!();
    page.runTimers();
    expect(page.added.map((e) => e.src)).toEqual(sources);
  });
});

describe("the post-build step on public/", () => {
  let site: Site;
  beforeEach(() => {
    site = makeSite();
  });
  afterEach(() => site.cleanUp());

  test("rewrites every page, then none on a second run; the slice file itself is left as Gatsby wrote it", () => {
    const slicefile = site.read("_gatsby/slices/_gatsby-scripts-1.html");
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toEqual({ pages: 3, rewritten: 3 });
    const loader = loaderScript(FIRST_SCRIPTS, "webpackChunkcyrus_website");
    for (const page of ["home/index.html", "contact/index.html", "404.html"]) {
      expect(site.read(page)).toContain(loader);
      expect(site.read(page)).not.toContain("async></script>");
    }
    expect(site.read("_gatsby/slices/_gatsby-scripts-1.html")).toBe(slicefile);
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toEqual({ pages: 3, rewritten: 0 });
  });

  test("a page an earlier build rewrote gets the current loader, beside pages Gatsby has just rendered", () => {
    site.write(
      "home/index.html",
      gatsbyPage("Home", gatsbyScriptsSlice(handMinifiedScript(FIRST_SCRIPTS, "webpackChunkcyrus_website"))),
    );
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toEqual({ pages: 3, rewritten: 3 });
    expect(site.read("home/index.html")).toBe(
      gatsbyPage("Home", gatsbyScriptsSlice(loaderScript(FIRST_SCRIPTS, "webpackChunkcyrus_website"))),
    );
  });

  test("an HTML file copied from the site's static/ folder is not a page", () => {
    site.write("legacy.html", "<html><body>old</body></html>");
    fs.writeFileSync(path.join(site.siteStaticDir, "legacy.html"), "<html><body>old</body></html>");
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir).pages).toBe(3);
    expect(site.read("legacy.html")).toBe("<html><body>old</body></html>");
  });

  test("a page without the scripts slice stops the step, naming the page", () => {
    site.write("aboutus/index.html", '<html><body><div id="gatsby-focus-wrapper"></div></body></html>');
    expect(() => loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toThrow(
      /public\/aboutus\/index\.html has no <!-- slice-start id="_gatsby-scripts-1" -->/,
    );
  });

  test("webpack's runtime missing from public/, or without its chunk queue, stops the step", () => {
    site.write("webpack-runtime-1.js", "!function(){}();");
    expect(() => loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toThrow(
      /names no self\.webpackChunk… queue/,
    );
    fs.rmSync(path.join(site.publicDir, "webpack-runtime-1.js"));
    expect(() => loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toThrow(
      /\/webpack-runtime-1\.js \(webpack's runtime\), is not in public\//,
    );
  });

  test("a public/ without pages stops the step", () => {
    for (const page of ["home/index.html", "contact/index.html", "404.html"])
      fs.rmSync(path.join(site.publicDir, page));
    expect(() => loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toThrow(/holds no page/);
  });
});
