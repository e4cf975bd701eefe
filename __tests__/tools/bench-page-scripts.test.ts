/**
 * @jest-environment node
 *
 * The benchmark's count of the JavaScript a built page loads (tools/bench/page-scripts.ts) and its
 * JavaScript budgets (tools/bench/budgets.ts), on a tiny public/ written here: no build, no browser,
 * no timing.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { checkBudgets, jsMisses, type Results } from "../../tools/bench/budgets";
import { moduleImports, pageScripts } from "../../tools/bench/page-scripts";

let publicDir: string;

const page = (body: string) =>
  `<!DOCTYPE html><html><head><title>t</title>` +
  `<script type="application/ld+json">{"@type":"Organization"}</script>` +
  `<script type="speculationrules">{"prefetch":[{"source":"document","where":{"href_matches":"/*"}}]}</script>` +
  `</head><body><main><h1>Page</h1></main>${body}</body></html>`;

function write(file: string, text: string | Buffer) {
  const target = path.join(publicDir, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, text);
}

beforeAll(() => {
  publicDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-page-scripts-"));
  write("plain/index.html", page(""));
  // Gatsby's runtime as its build leaves it: an inline chunk map, the loader, and the chunk groups in
  // webpack.stats.json; the page component's chunk group from the page's page-data.json.
  write(
    "gatsby/index.html",
    page(
      `<script id="gatsby-chunk-mapping">window.___chunkMapping="{}";</script>` +
        `<script>(function(n){})([["/webpack-runtime-abc.js","/app-def.js"]])</script>`,
    ),
  );
  write("page-data/gatsby/page-data.json", JSON.stringify({ componentChunkName: "component---page" }));
  write(
    "webpack.stats.json",
    JSON.stringify({
      namedChunkGroups: {
        app: { assets: [{ name: "webpack-runtime-abc.js" }, { name: "app-def.js" }] },
        "component---page": { assets: [{ name: "component---page-123.js" }, { name: "component---page-123.js.map" }] },
      },
    }),
  );
  write("webpack-runtime-abc.js", "(()=>{var e={};self.webpackChunk=e})();");
  write("app-def.js", `(()=>{${"console.log('app');".repeat(400)}})();`);
  write("component---page-123.js", "(()=>{console.log('page')})();");
  // A page with behaviour: one small island that imports a shared module, which imports another
  // lazily; a preloaded copy of the shared module is one request, not two.
  write(
    "island/index.html",
    page(
      `<link rel="modulepreload" href="/islands/shared.js">` +
        `<script type="module" src="/islands/carousel.js"></script>`,
    ),
  );
  write("islands/carousel.js", `import{pause as p}from"./shared.js";p(document.querySelector("main"));`);
  write("islands/shared.js", `export const pause=(e)=>import("./later.js").then(m=>m.go(e));`);
  write("islands/later.js", `export function go(e){e.dataset.paused="true"}`);
  // A module over the budget: 16 KB of random text does not compress.
  write("big/index.html", page(`<script type="module" src="/islands/big.js"></script>`));
  write("islands/big.js", `import "./huge.js";`);
  write("islands/huge.js", `export const data="${crypto.randomBytes(12 * 1024).toString("base64")}";`);
  // A classic script on a page without a module script: behaviour is decided by modules only.
  write("classic/index.html", page(`<script src="/legacy.js"></script>`));
  write("legacy.js", "document.body.className='js';");
  write("broken/index.html", page(`<script type="module" src="/islands/gone.js"></script>`));
  write("inline-module/index.html", page(`<script type="module">import "/islands/carousel.js";</script>`));
});

afterAll(() => fs.rmSync(publicDir, { recursive: true, force: true }));

test("a page without scripts loads none and meets the budget", () => {
  const js = pageScripts(publicDir, "/plain");
  expect(js).toMatchObject({ hasBehaviour: false, gatsbyRuntime: false, files: [], gzip: 0, inline: { count: 0 } });
  expect(jsMisses("/plain", js)).toEqual([]);
});

test("a page with Gatsby's runtime counts its chunk groups and fails the budget of a page without behaviour", () => {
  const js = pageScripts(publicDir, "/gatsby");
  expect(js.hasBehaviour).toBe(false);
  expect(js.gatsbyRuntime).toBe(true);
  expect(js.files.map((f) => f.file)).toEqual(["/webpack-runtime-abc.js", "/app-def.js", "/component---page-123.js"]);
  expect(js.inline.count).toBe(2);
  expect(js.gzip).toBe(js.files.reduce((sum, f) => sum + f.gzip, 0));
  expect(js.gzip).toBeGreaterThan(0);
  expect(js.brotli).toBeGreaterThan(0);
  expect(jsMisses("/gatsby", js)).toEqual([
    expect.stringMatching(
      /^\/gatsby: no behaviour \(no module script\) but 3 script file\(s\), .* and 2 inline script\(s\) \(Gatsby's runtime\)$/,
    ),
  ]);
});

test("a module island counts itself, its imports (static and dynamic) and a preload once each, within 10 KB", () => {
  const js = pageScripts(publicDir, "/island");
  expect(js.hasBehaviour).toBe(true);
  expect(js.files.map((f) => `${f.via} ${f.file}`).sort()).toEqual([
    "import /islands/later.js",
    "module /islands/carousel.js",
    "modulepreload /islands/shared.js",
  ]);
  expect(js.missing).toEqual([]);
  expect(jsMisses("/island", js)).toEqual([]);
});

test("a module whose imports come to more than 10 KB compressed fails, with its size named", () => {
  const js = pageScripts(publicDir, "/big");
  expect(js.hasBehaviour).toBe(true);
  expect(js.files.map((f) => f.file)).toEqual(["/islands/big.js", "/islands/huge.js"]);
  expect(js.gzip).toBeGreaterThan(10 * 1024);
  expect(jsMisses("/big", js)).toEqual([
    expect.stringMatching(/^\/big: JavaScript \d+\.\d KB gzip > 10\.0 KB \(2 file\(s\)\)$/),
  ]);
});

test("a classic script is a script on a page without behaviour; a script not in public/ is named", () => {
  expect(jsMisses("/classic", pageScripts(publicDir, "/classic"))).toEqual([
    expect.stringMatching(/^\/classic: no behaviour \(no module script\) but 1 script file\(s\)/),
  ]);
  expect(jsMisses("/broken", pageScripts(publicDir, "/broken"))).toEqual([
    "/broken: loads /islands/gone.js, which is not in public/",
  ]);
});

test("an inline module's imports are loaded files; it is an inline script, and not a module script with src", () => {
  const js = pageScripts(publicDir, "/inline-module");
  expect(js.files.map((f) => f.file)).toEqual(["/islands/carousel.js", "/islands/shared.js", "/islands/later.js"]);
  expect(js.inline.count).toBe(1);
  expect(js.hasBehaviour).toBe(false);
  expect(jsMisses("/inline-module", js)).toEqual([
    expect.stringMatching(/^\/inline-module: no behaviour .*3 script file\(s\)/),
  ]);
});

test("module imports are read from minified and formatted code alike", () => {
  expect(
    moduleImports(
      `import{a as b}from"./a.js";import"./b.js";export*from"../c.js";\n` +
        `import d from './d.js';\nexport { e } from "/e.js";\nconst f = () => import("./f.js");\n` +
        `const s = "not an import";`,
    ).sort(),
  ).toEqual(["../c.js", "./a.js", "./b.js", "./d.js", "./f.js", "/e.js"]);
});

test("--check's budgets: JavaScript per route, performance 100 at 4x and TBT 50 ms at 8x", () => {
  const figures = (overrides: Record<string, number>) => ({
    median: {
      performance: 100,
      accessibility: 100,
      "best-practices": 100,
      seo: 100,
      fcpMs: 700,
      lcpMs: 900,
      tbtMs: 0,
      cls: 0,
      siMs: 700,
      transferBytes: 50 * 1024,
      jsBytes: 0,
      jsRequests: 0,
      imageBytes: 9 * 1024,
      requests: 5,
      benchmarkIndex: 1500,
      load1: 1,
      problems: [],
      lcpElement: null,
      ...overrides,
    },
    runs: [],
  });
  const results: Results = {
    durationSeconds: 1,
    options: { routes: ["/home", "/plain"], runs: 3, configs: ["mobile", "mobile-8x"], skipBuild: true },
    machine: { cpus: 2, cpuModel: "test", loadStart: [1], loadEnd: [1] },
    build: null,
    js: { "/plain": pageScripts(publicDir, "/plain"), "/gatsby": pageScripts(publicDir, "/gatsby") },
    routes: {
      "/home": { mobile: figures({ performance: 99 }), "mobile-8x": figures({ tbtMs: 51, performance: 97 }) },
      "/plain": { mobile: figures({}), "mobile-8x": figures({ tbtMs: 50 }) },
    },
  };
  const { misses } = checkBudgets(results);
  expect(misses).toEqual([
    "mobile /home: performance 99 < 100",
    "mobile-8x /home: TBT 51 ms > 50 ms",
    expect.stringMatching(/^\/gatsby: no behaviour/),
  ]);
});
