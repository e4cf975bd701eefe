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
import { deferFirstScripts, loadScriptsAfterPaint, loaderScript } from "../src/scripts-after-paint";
import {
  FIRST_SCRIPTS,
  PAGE_PATH_SCRIPT,
  type Site,
  gatsbyPage,
  gatsbyScriptsSlice,
  makeSite,
  scriptFreePage,
} from "./fixture";

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
    const once = deferFirstScripts(slice(gatsbyScripts))!;
    expect(deferFirstScripts(once)).toBeNull();
  });

  test("a page holding a loader from an earlier build gets the current one, for the same scripts", () => {
    const sources = ["/webpack-runtime-1.js", "/framework-2.js", "/app-3.js"];
    const older = slice(
      `<script id="gatsby-scripts-after-paint">(function(s,g){/* older */}).apply(null,${JSON.stringify([sources, null])})</script>`,
    );
    const html = deferFirstScripts(older);
    expect(html).not.toBeNull();
    expect(html).not.toContain("/* older */");
    expect(html).toContain(loaderScript(sources));
    expect(html!.match(/gatsby-scripts-after-paint/g)).toHaveLength(1);
    expect(html).toContain('window.___webpackCompilationHash="abc"');
    expect(deferFirstScripts(html!)).toBeNull();
  });

  test("a page an incremental build left with the hand-minified loader gets the compiled one, for the same scripts", () => {
    const sources = ["/webpack-runtime-aaab.js", "/framework-c0db.js", "/app-adb5.js"];
    const html = deferFirstScripts(slice(handMinifiedScript(sources, "webpackChunkcyrus_website")));
    expect(html).toBe(slice(loaderScript(sources)));
  });

  test("the loader cannot be broken out of by a script address", () => {
    expect(loaderScript(["/x.js</script><script>alert(1)//"])).not.toMatch(/<\/script>.*<\/script>/s);
  });
});

describe("a page not as Gatsby writes it stops the build", () => {
  test("without the _gatsby-scripts-1 slice, naming the slice and the page", () => {
    expect(() => deferFirstScripts(`<html><body>${gatsbyScripts}</body></html>`, "public/home/index.html")).toThrow(
      /The `_gatsby-scripts-1` slice in every page \(checked on Gatsby 5\.16\.1\) has changed: public\/home\/index\.html has no <!-- slice-start id="_gatsby-scripts-1" -->/,
    );
  });

  test("with a slice that has no <script src=… async> tag", () => {
    expect(() => deferFirstScripts(slice('<script src="/app-3.js" defer></script>'), "public/home/index.html")).toThrow(
      /Gatsby's `<script src=… async>` tags .*has changed: the scripts slice of public\/home\/index\.html holds no <script src="…" async><\/script> tag/,
    );
  });
});

describe("the loader script", () => {
  test("is src/loader.ts minified into one function, no larger than the hand-minified one it replaced", () => {
    const fn = loaderFunction();
    expect(fn).toMatch(/^function [\w$]+\([\w$]+\)\{/);
    expect(fn).toBe(compileLoader(fs.readFileSync(LOADER_SOURCE, "utf8")));
    expect(fn.length).toBeLessThanOrEqual(HAND_MINIFIED.length - 2);
    expect(loaderScript([]).length).toBeLessThan(1024);
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
function runLoader(script: string) {
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
    self: {},
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
// (The hand-minified one also initialised React's modules through webpack's chunk queue when given
// its name; that step, which bought nothing measurable, is gone: it runs here without one.)
describe.each([
  ["the loader compiled from src/loader.ts", (sources: string[]) => loaderScript(sources)],
  ["the hand-minified loader it replaced", (sources: string[]) => handMinifiedScript(sources, null)],
])("%s", (_name, script) => {
  test("preloads every script after the first frame, then runs them one by one in order", () => {
    const page = runLoader(script(["/a.js", "/b.js", "/c.js"]));
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
    const page = runLoader(script(["/a.js"]));
    page.listeners.load?.();
    page.frames.forEach((f) => f());
    page.settle();
    expect(page.added.map((e) => e.src)).toEqual(["/a.js"]);
    expect(page.preloaded.map((e) => e.href)).toEqual(["/a.js"]);
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
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toEqual({
      pages: 3,
      rewritten: 3,
      scriptFree: 0,
    });
    const loader = loaderScript(FIRST_SCRIPTS);
    for (const page of ["home/index.html", "contact/index.html", "404.html"]) {
      expect(site.read(page)).toContain(loader);
      expect(site.read(page)).not.toContain("async></script>");
    }
    expect(site.read("_gatsby/slices/_gatsby-scripts-1.html")).toBe(slicefile);
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toEqual({
      pages: 3,
      rewritten: 0,
      scriptFree: 0,
    });
  });

  test("a page an earlier build rewrote gets the current loader, beside pages Gatsby has just rendered", () => {
    site.write(
      "home/index.html",
      gatsbyPage("Home", gatsbyScriptsSlice(handMinifiedScript(FIRST_SCRIPTS, "webpackChunkcyrus_website"))),
    );
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toEqual({
      pages: 3,
      rewritten: 3,
      scriptFree: 0,
    });
    expect(site.read("home/index.html")).toBe(gatsbyPage("Home", gatsbyScriptsSlice(loaderScript(FIRST_SCRIPTS))));
  });

  test("an HTML file copied from the site's static/ folder is not a page", () => {
    site.write("legacy.html", "<html><body>old</body></html>");
    fs.writeFileSync(path.join(site.siteStaticDir, "legacy.html"), "<html><body>old</body></html>");
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir).pages).toBe(3);
    expect(site.read("legacy.html")).toBe("<html><body>old</body></html>");
  });

  test("a page without scripts (src/script-free.ts left them out) is left as it is", () => {
    site.write("aboutus/index.html", scriptFreePage("About"));
    expect(loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toEqual({
      pages: 4,
      rewritten: 3,
      scriptFree: 1,
    });
    expect(site.read("aboutus/index.html")).toBe(scriptFreePage("About"));
  });

  test("a page with Gatsby's page-path script but without the scripts slice stops the step, naming the page", () => {
    site.write(
      "aboutus/index.html",
      `<html><body><div id="gatsby-focus-wrapper"></div>${PAGE_PATH_SCRIPT}</body></html>`,
    );
    expect(() => loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toThrow(
      /public\/aboutus\/index\.html has no <!-- slice-start id="_gatsby-scripts-1" -->/,
    );
  });

  test("a first script missing from public/ stops the step", () => {
    fs.rmSync(path.join(site.publicDir, "framework-2.js"));
    expect(() => loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toThrow(
      /Gatsby's `<script src=… async>` tags .*has changed: public\/404\.html loads \/framework-2\.js first, which is not in public\//,
    );
  });

  test("a public/ without pages stops the step", () => {
    for (const page of ["home/index.html", "contact/index.html", "404.html"])
      fs.rmSync(path.join(site.publicDir, page));
    expect(() => loadScriptsAfterPaint(site.publicDir, site.siteStaticDir)).toThrow(/holds no page/);
  });
});
