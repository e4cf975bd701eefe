/**
 * The performance benchmark of the built site (`npm run bench`, which runs this file with tsx).
 *
 * 1. Builds the production site from cold (empty .cache/ and public/), then rebuilds it warm after
 *    changing one line of one YAML file, and once more after putting the line back, timing each.
 * 2. Measures the JavaScript each page loads first (the app's and the page component's chunk groups
 *    in public/webpack.stats.json), gzip and brotli compressed.
 * 3. Serves public/ with `gatsby serve` on loopback and runs Lighthouse (Debian's Chromium through
 *    CHROME_PATH) on every route in the mobile configuration (simulated throttling) and the desktop
 *    one, N runs each (3 by default), taking the median of each figure. The page of every section
 *    type is among the routes: it is measured in the fixture site's build (built when out of date,
 *    __tests__/support/fixture-site.ts), served the same way, with the same budgets.
 * 4. Writes bench/results.json, prints a table per configuration and, with --check, each budget
 *    missed (exit code 1 if any).
 *
 * Usage: npm run bench -- [--check] [--routes /home,/contact] [--runs 3] [--configs mobile,desktop]
 *                         [--skip-build] [--max-load 2] [--report] [--out bench/results.json]
 * docs/performance.md explains the options, the budgets and how the figures are made.
 * Timings depend on the machine and its load: this is not a test, and `npm test` does not run it.
 * `--report --check` on an existing results file measures nothing: it prints and checks it.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import zlib from "node:zlib";
// The build's own reading of webpack's chunk groups, which the plugin's README lists among the
// Gatsby internals it tracks: when Gatsby changes them, the build and this count change together.
import { chunkGroupScripts, type WebpackStats } from "../../plugins/gatsby-plugin-cyrus-performance/src/compile-hints";
import { ensureFixtureSite, fixturePage, fixtureRoot } from "../../__tests__/support/fixture-site";
import { readContent, siteRoutes } from "../../src/node/content/read-content";
import { chromePath, chromiumArgs } from "../chromium";
import { serveBuiltSite } from "../serve-built-site";

const root = path.resolve(__dirname, "../..");
const gatsbyCli = path.join(root, "node_modules/gatsby/cli.js");
const resultsDefault = path.join(root, "bench/results.json");
const runsDir = path.join(root, "bench/runs");

/**
 * The added page with a section of every type: kept out of production in data/, ready in the fixture
 * site, whose build it is measured in.
 */
const FIXTURE_ROUTE = `/${fixturePage.slug}`;
/** Every content route (the main navigation's pages, then each service's), as data/ has them, and the fixture page. */
const ALL_ROUTES = [...new Set([...siteRoutes(readContent()), FIXTURE_ROUTE])];
/** The project whose public/ holds a route's page. */
const siteOf = (route: string) => (route === FIXTURE_ROUTE ? fixtureRoot : root);

/** Where the warm rebuild changes one line: a value an editor would plausibly edit. */
const WARM_EDIT = { file: "data/about/about.yaml", line: /^(\s*text: ".*)("\s*)$/, marker: " (bench edit)" };

const KB = 1024;
const BUDGETS = {
  mobile: { performance: 99, accessibility: 100, "best-practices": 100, seo: 100, lcpMs: 1500, tbtMs: 50, cls: 0.01 },
  desktop: { performance: 100, accessibility: 100, "best-practices": 100, seo: 100 },
  jsFirstGzipBytes: 100 * KB,
  homeMobileTransferBytes: 300 * KB,
  coldBuildSeconds: 120,
  warmBuildSeconds: 20,
};

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
type ConfigName = "mobile" | "desktop";
const CONFIG_NAMES: readonly ConfigName[] = ["mobile", "desktop"];

interface Options {
  maxLoad: number | null;
  check: boolean;
  routes: string[];
  runs: number;
  configs: ConfigName[];
  skipBuild: boolean;
  reportOnly: boolean;
  out: string;
}

interface Timing {
  seconds: number;
  loadBefore: number[];
  loadAfter: number[];
}

interface Builds {
  cold: Timing;
  warm: Timing & { changed: string };
  warmRestore: Timing;
}

interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

interface JsFirst {
  maxGzip: number;
  maxBrotli: number;
  worstRoute: string;
  files: Record<string, Sizes>;
  perRoute: Record<string, Sizes & { scripts: string[] }>;
}

/** The figures of one Lighthouse run; null where Lighthouse gave none. */
type Figures = Record<(typeof FIGURE_KEYS)[number], number | null> & {
  lcpElement: string | null;
  problems: string[];
};

interface RouteResult {
  median: Figures;
  runs: Array<Omit<Figures, "problems" | "lcpElement">>;
}

interface Results {
  generatedAt?: string;
  durationSeconds: number | null;
  options: { routes: "all" | string[]; runs: number; configs: ConfigName[]; skipBuild: boolean };
  machine: {
    cpus: number;
    cpuModel: string;
    node?: string;
    lighthouse?: string;
    chromium?: string;
    loadStart: number[];
    loadEnd: number[];
  };
  budgets?: typeof BUDGETS;
  build: Builds | null;
  jsFirst: JsFirst | null;
  routes: Record<string, Partial<Record<ConfigName, RouteResult>>>;
}

/**
 * The parts of a Lighthouse result read here. Lighthouse's own type spreads audit details over a
 * dozen unions; these few fields are all the benchmark needs.
 */
interface LighthouseResult {
  runtimeError?: { code: string; message: string };
  environment?: { benchmarkIndex?: number };
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> } | undefined>;
  audits: Record<
    string,
    | {
        score: number | null;
        scoreDisplayMode: string;
        displayValue?: string;
        numericValue?: number;
        details?: { items?: Array<Record<string, unknown>> };
      }
    | undefined
  >;
}
/* ------------------------------------------------------------------ options */

function options(): Options {
  const { values } = parseArgs({
    options: {
      check: { type: "boolean", default: false },
      routes: { type: "string" },
      runs: { type: "string", default: "3" },
      configs: { type: "string", default: "mobile,desktop" },
      "skip-build": { type: "boolean", default: false },
      report: { type: "boolean", default: false },
      out: { type: "string" },
      "max-load": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(fs.readFileSync(__filename, "utf8").split("*/")[0]);
    process.exit(0);
  }
  const routes = values.routes
    ? values.routes.split(",").map((r) => `/${r.trim().replace(/^\/+|\/+$/g, "")}`)
    : ALL_ROUTES;
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error("--runs must be a whole number from 1 to 9");
  const configs = values.configs.split(",").map((c) => {
    const name = c.trim();
    if (!CONFIG_NAMES.includes(name as ConfigName)) throw new Error(`unknown configuration ${name}`);
    return name as ConfigName;
  });
  const maxLoad = values["max-load"] === undefined ? null : Number(values["max-load"]);
  if (maxLoad !== null && !(maxLoad > 0)) throw new Error("--max-load must be a positive number");
  return {
    maxLoad,
    check: values.check,
    routes,
    runs,
    configs,
    skipBuild: values["skip-build"],
    reportOnly: values.report,
    out: path.resolve(root, values.out ?? resultsDefault),
  };
}

/* ------------------------------------------------------------------ helpers */

const load = () => os.loadavg().map((n) => Math.round(n * 100) / 100);
const median = (xs: ReadonlyArray<number | null>): number | null => {
  const v = xs.filter((x): x is number => typeof x === "number" && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
};
function round(n: number, digits?: number): number;
function round(n: number | null, digits?: number): number | null;
function round(n: number | null, digits = 0): number | null {
  return n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/* ------------------------------------------------------------------ builds */

function gatsby(args: string[], label: string): Timing {
  const started = performance.now();
  const loadBefore = load();
  const result = spawnSync(process.execPath, [gatsbyCli, ...args], {
    cwd: root,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1" },
  });
  const seconds = round((performance.now() - started) / 1000, 1);
  if (result.status !== 0)
    throw new Error(`gatsby ${args.join(" ")} (${label}) failed with exit code ${result.status}`);
  return { seconds, loadBefore, loadAfter: load() };
}

/** Cold build, warm rebuild after a one-line YAML change, and the rebuild that puts it back. */
function buildAll(): Builds {
  console.log("\n== Cold build (gatsby clean, then gatsby build)");
  gatsby(["clean"], "clean");
  const cold = gatsby(["build"], "cold");
  console.log(`cold build: ${cold.seconds} s (load ${cold.loadBefore.join(" ")})`);

  const file = path.join(root, WARM_EDIT.file);
  const original = fs.readFileSync(file, "utf8");
  const lines = original.split("\n");
  const index = lines.findIndex((l) => WARM_EDIT.line.test(l));
  if (index < 0)
    throw new Error(`bench: no line of ${WARM_EDIT.file} matches ${WARM_EDIT.line} to change for the warm rebuild`);
  lines[index] = lines[index]!.replace(WARM_EDIT.line, `$1${WARM_EDIT.marker}$2`);
  const restore = () => fs.writeFileSync(file, original);
  const onSignal = () => {
    restore();
    process.exit(130);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let warm: Timing;
  try {
    fs.writeFileSync(file, lines.join("\n"));
    console.log(`\n== Warm rebuild after changing ${WARM_EDIT.file}:${index + 1}`);
    warm = gatsby(["build"], "warm");
  } finally {
    restore();
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
  console.log(`warm rebuild: ${warm.seconds} s (load ${warm.loadBefore.join(" ")})`);
  console.log(`\n== Warm rebuild after putting ${WARM_EDIT.file}:${index + 1} back`);
  const warmRestore = gatsby(["build"], "warm, line restored");
  console.log(`warm rebuild: ${warmRestore.seconds} s (load ${warmRestore.loadBefore.join(" ")})`);
  return {
    cold,
    warm: { ...warm, changed: `${WARM_EDIT.file}:${index + 1}` },
    warmRestore,
  };
}

/* ------------------------------------------------------------------ JavaScript loaded first */

function htmlFile(route: string): string {
  const publicDir = path.join(siteOf(route), "public");
  const candidates = [path.join(publicDir, route, "index.html"), path.join(publicDir, `${route}.html`)];
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found)
    throw new Error(`bench: no built HTML for ${route} in ${path.relative(root, publicDir)}/ (build first, or drop --skip-build)`);
  return found;
}

/**
 * The JavaScript a page needs before it is interactive: the `app` chunk group (webpack runtime,
 * React, Gatsby's runtime) and the chunk group of the page's component (from its page-data.json),
 * as listed in public/webpack.stats.json. Chunks loaded later on demand are not in it; Lighthouse's
 * "JS" column counts everything loaded.
 * Sizes: gzip level 6 (what gatsby serve's compression and a typical nginx `gzip on` send) and
 * brotli quality 11 (precompressed files).
 */
function jsLoadedFirst(routes: readonly string[]): JsFirst {
  const stats = new Map<string, WebpackStats>();
  const groupJs = (site: string, name: string) => {
    if (!stats.has(site))
      stats.set(site, JSON.parse(fs.readFileSync(path.join(site, "public/webpack.stats.json"), "utf8")) as WebpackStats);
    const js = chunkGroupScripts(stats.get(site)!, name);
    if (!js) throw new Error(`bench: chunk group ${name} is not in ${path.relative(root, site) || "."}/public/webpack.stats.json`);
    return js;
  };
  // By file name: a name holds its content's hash, so the two builds' files of one name are the same.
  const sizes = new Map<string, Sizes>();
  const sizeOf = (site: string, file: string): Sizes => {
    let size = sizes.get(file);
    if (!size) {
      const body = fs.readFileSync(path.join(site, "public", file));
      size = {
        raw: body.length,
        gzip: zlib.gzipSync(body, { level: 6 }).length,
        brotli: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
      sizes.set(file, size);
    }
    return size;
  };
  const perRoute: JsFirst["perRoute"] = {};
  for (const route of routes) {
    htmlFile(route); // fails clearly when the page was not built
    const site = siteOf(route);
    const pageData = JSON.parse(
      fs.readFileSync(path.join(site, "public/page-data", route, "page-data.json"), "utf8"),
    ) as { componentChunkName: string };
    const scripts = [...new Set([...groupJs(site, "app"), ...groupJs(site, pageData.componentChunkName)])];
    const total: Sizes = { raw: 0, gzip: 0, brotli: 0 };
    for (const file of scripts) {
      const size = sizeOf(site, file);
      total.raw += size.raw;
      total.gzip += size.gzip;
      total.brotli += size.brotli;
    }
    perRoute[route] = { ...total, scripts };
  }
  const worst = Object.entries(perRoute).sort((a, b) => b[1].gzip - a[1].gzip)[0];
  if (!worst) throw new Error("bench: no route to measure");
  return {
    maxGzip: worst[1].gzip,
    maxBrotli: Math.max(...Object.values(perRoute).map((r) => r.brotli)),
    worstRoute: worst[0],
    files: Object.fromEntries([...sizes.entries()].sort()),
    perRoute,
  };
}

/* ------------------------------------------------------------------ a quiet machine */

/**
 * With --max-load, waits (at most 120 s, in 5 s steps) until the 1-minute load average is at or
 * below it: on a shared machine, other processes' work lands in the page's main-thread tasks, which
 * Lighthouse multiplies by its CPU slowdown.
 */
async function waitForQuiet(maxLoad: number | null) {
  if (maxLoad === null) return;
  for (let waited = 0; waited < 120 && (os.loadavg()[0] ?? 0) > maxLoad; waited += 5) await sleep(5000);
}

/* ------------------------------------------------------------------ Lighthouse */

async function lighthouseRunner(configName: ConfigName) {
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const config =
    configName === "desktop" ? (await import("lighthouse/core/config/desktop-config.js")).default : undefined; // the default configuration is the mobile one, with simulated throttling
  let chrome: Awaited<ReturnType<typeof chromeLauncher.launch>> | null = null;
  const launch = async () => {
    chrome = await chromeLauncher.launch({ chromePath, chromeFlags: [...chromiumArgs], logLevel: "silent" });
  };
  const kill = async () => {
    if (chrome) await chrome.kill();
    chrome = null;
  };
  const flags = {
    logLevel: "error" as const,
    output: "json" as const,
    onlyCategories: [...CATEGORIES],
    // The run needs the trace's frames for Speed Index, not screenshots in the report.
    disableFullPageScreenshot: true,
    skipAudits: ["screenshot-thumbnails", "final-screenshot"],
  };
  /** One Lighthouse navigation in a new tab of the shared Chrome; a failed run relaunches Chrome and retries once. */
  const run = async (url: string): Promise<LighthouseResult> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        if (!chrome) await launch();
        const result = await lighthouse(url, { ...flags, port: chrome?.port }, config);
        const lhr = result?.lhr as LighthouseResult | undefined;
        if (!lhr) throw new Error("Lighthouse returned no result");
        if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
        return lhr;
      } catch (error) {
        await kill();
        if (attempt >= 2) throw error;
        const message = error instanceof Error ? error.message : String(error);
        console.warn(`  run failed (${message}); relaunching Chrome and retrying`);
      }
    }
  };
  return { run, close: kill };
}

/** The figures of one Lighthouse result. */
function figures(lhr: LighthouseResult): Figures {
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? null;
  const summary = new Map(
    (lhr.audits["resource-summary"]?.details?.items ?? []).map((i) => [
      i.resourceType,
      i as { transferSize?: number; requestCount?: number },
    ]),
  );
  const score = (c: Category) => {
    const value = lhr.categories[c]?.score;
    return value == null ? null : Math.round(value * 100);
  };
  // Audits that cost points: scored ones below 1 in any category (weight > 0), named for the report.
  const problems: string[] = [];
  for (const c of CATEGORIES) {
    for (const ref of lhr.categories[c]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative") {
        problems.push(`${c}: ${ref.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
      }
    }
  }
  const lcpItem = lhr.audits["largest-contentful-paint-element"]?.details?.items?.[0] as
    | { items?: Array<{ node?: { snippet?: string } }> }
    | undefined;
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    "best-practices": score("best-practices"),
    seo: score("seo"),
    fcpMs: audit("first-contentful-paint"),
    lcpMs: audit("largest-contentful-paint"),
    tbtMs: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
    siMs: audit("speed-index"),
    transferBytes: summary.get("total")?.transferSize ?? null,
    jsBytes: summary.get("script")?.transferSize ?? null,
    imageBytes: summary.get("image")?.transferSize ?? null,
    requests: summary.get("total")?.requestCount ?? null,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    load1: round(os.loadavg()[0] ?? 0, 2),
    lcpElement: lcpItem?.items?.[0]?.node?.snippet ?? null,
    problems,
  };
}

const FIGURE_KEYS = [
  "performance",
  "accessibility",
  "best-practices",
  "seo",
  "fcpMs",
  "lcpMs",
  "tbtMs",
  "cls",
  "siMs",
  "transferBytes",
  "jsBytes",
  "imageBytes",
  "requests",
  "benchmarkIndex",
  "load1",
] as const;

function medianOf(runs: readonly Figures[]): Figures {
  const m = {
    problems: [...new Set(runs.flatMap((r) => r.problems))],
    lcpElement: runs.map((r) => r.lcpElement).find(Boolean) ?? null,
  } as Figures;
  for (const key of FIGURE_KEYS) m[key] = median(runs.map((r) => r[key]));
  m.cls = round(m.cls, 4);
  for (const k of ["fcpMs", "lcpMs", "tbtMs", "siMs", "benchmarkIndex"] as const) m[k] = round(m[k]);
  return m;
}

async function lighthouseAll(opts: Options, originOf: (route: string) => string): Promise<Results["routes"]> {
  const results: Results["routes"] = {};
  for (const configName of opts.configs) {
    console.log(`\n== Lighthouse, ${configName}: ${opts.routes.length} routes × ${opts.runs} runs`);
    const runner = await lighthouseRunner(configName);
    try {
      for (const route of opts.routes) {
        const runs: Figures[] = [];
        const slug = route.slice(1).replace(/\//g, "__");
        const dir = path.join(runsDir, configName);
        fs.mkdirSync(dir, { recursive: true });
        for (const old of fs.readdirSync(dir))
          if (old.startsWith(`${slug}-`) && /^\d+\.json$/.test(old.slice(slug.length + 1)))
            fs.rmSync(path.join(dir, old));
        for (let i = 1; i <= opts.runs; i += 1) {
          await waitForQuiet(opts.maxLoad);
          const started = performance.now();
          const lhr = await runner.run(`${originOf(route)}${route}`);
          const f = figures(lhr);
          runs.push(f);
          fs.writeFileSync(path.join(dir, `${slug}-${i}.json`), JSON.stringify(lhr));
          console.log(
            `  ${route} #${i}: perf ${f.performance} a11y ${f.accessibility} bp ${f["best-practices"]} seo ${f.seo}` +
              ` LCP ${Math.round(f.lcpMs ?? 0)} ms TBT ${Math.round(f.tbtMs ?? 0)} ms CLS ${round(f.cls, 3)}` +
              ` (${((performance.now() - started) / 1000).toFixed(1)} s, load ${load()[0]}, BI ${f.benchmarkIndex})`,
          );
        }
        results[route] ??= {};
        results[route][configName] = {
          median: medianOf(runs),
          runs: runs.map(({ problems: _problems, lcpElement: _lcpElement, ...rest }) => rest),
        };
      }
    } finally {
      await runner.close();
    }
  }
  return results;
}

/* ------------------------------------------------------------------ budgets and tables */

function checkBudgets(results: Results) {
  const misses: string[] = [];
  const notMeasured: string[] = [];
  const labels: Record<Category, string> = {
    performance: "performance",
    accessibility: "accessibility",
    "best-practices": "best practices",
    seo: "SEO",
  };
  for (const [route, byConfig] of Object.entries(results.routes)) {
    for (const [configName, result] of Object.entries(byConfig) as Array<[ConfigName, RouteResult]>) {
      const m = result.median;
      const b: Partial<typeof BUDGETS.mobile> & Record<Category, number> = BUDGETS[configName];
      // A figure Lighthouse did not give (null) misses its budget.
      const within = (value: number | null, limit: number) => value !== null && value <= limit;
      for (const c of CATEGORIES) {
        const value = m[c];
        if (value === null || value < b[c]) misses.push(`${configName} ${route}: ${labels[c]} ${value} < ${b[c]}`);
      }
      if (b.lcpMs !== undefined && !within(m.lcpMs, b.lcpMs))
        misses.push(`${configName} ${route}: LCP ${m.lcpMs} ms > ${b.lcpMs} ms`);
      if (b.tbtMs !== undefined && !within(m.tbtMs, b.tbtMs))
        misses.push(`${configName} ${route}: TBT ${m.tbtMs} ms > ${b.tbtMs} ms`);
      if (b.cls !== undefined && !within(m.cls, b.cls)) misses.push(`${configName} ${route}: CLS ${m.cls} > ${b.cls}`);
      if (configName === "mobile" && route === "/home" && !within(m.transferBytes, BUDGETS.homeMobileTransferBytes)) {
        misses.push(`mobile /home: ${kb(m.transferBytes)} KB transferred > ${kb(BUDGETS.homeMobileTransferBytes)} KB`);
      }
    }
  }
  if (!results.routes["/home"]?.mobile)
    notMeasured.push("total transferred on /home (mobile): /home was not run on mobile");
  if (results.jsFirst) {
    for (const [route, js] of Object.entries(results.jsFirst.perRoute)) {
      if (js.gzip > BUDGETS.jsFirstGzipBytes)
        misses.push(`${route}: JavaScript loaded first ${kb(js.gzip)} KB gzip > ${kb(BUDGETS.jsFirstGzipBytes)} KB`);
    }
  }
  if (results.build) {
    const { cold, warm } = results.build;
    if (cold.seconds > BUDGETS.coldBuildSeconds)
      misses.push(`cold build ${cold.seconds} s > ${BUDGETS.coldBuildSeconds} s (load ${cold.loadBefore.join(" ")})`);
    if (warm.seconds > BUDGETS.warmBuildSeconds)
      misses.push(`warm rebuild ${warm.seconds} s > ${BUDGETS.warmBuildSeconds} s (load ${warm.loadBefore.join(" ")})`);
  } else {
    notMeasured.push("cold build and warm rebuild times: --skip-build");
  }
  return { misses, notMeasured };
}

const kb = (bytes: number | null) => (bytes === null ? "–" : (bytes / KB).toFixed(1));
const sec = (ms: number | null) => (ms === null ? "–" : (ms / 1000).toFixed(2));

function tables(results: Results): string {
  const out: string[] = [];
  const configs = new Set(Object.values(results.routes).flatMap((r) => Object.keys(r)));
  for (const configName of CONFIG_NAMES.filter((c) => configs.has(c))) {
    out.push(
      `\n${configName === "mobile" ? "Mobile (simulated Slow 4G, 4× CPU slowdown)" : "Desktop (simulated, no CPU slowdown)"}: median of ${results.options.runs} run(s)\n`,
    );
    out.push(
      "| route | perf | a11y | BP | SEO | FCP s | LCP s | TBT ms | CLS | SI s | total KB | JS KB | img KB | requests | load | BI |",
    );
    out.push("| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
    for (const [route, byConfig] of Object.entries(results.routes)) {
      const m = byConfig[configName]?.median;
      if (!m) continue;
      const name = route === FIXTURE_ROUTE ? `${route} (fixture site)` : route;
      out.push(
        `| ${name} | ${m.performance} | ${m.accessibility} | ${m["best-practices"]} | ${m.seo} | ${sec(m.fcpMs)} | ${sec(m.lcpMs)} | ${m.tbtMs} | ${m.cls} | ${sec(m.siMs)} | ${kb(m.transferBytes)} | ${kb(m.jsBytes)} | ${kb(m.imageBytes)} | ${m.requests} | ${m.load1} | ${m.benchmarkIndex} |`,
      );
    }
  }
  if (results.jsFirst) {
    const j = results.jsFirst;
    out.push(
      `\nJavaScript loaded first: at most ${kb(j.maxGzip)} KB gzip (${j.worstRoute}), ${kb(j.maxBrotli)} KB brotli`,
    );
  }
  if (results.build) {
    const { cold, warm, warmRestore } = results.build;
    out.push(
      `Builds: cold ${cold.seconds} s (load ${cold.loadBefore.join(" ")}), warm after a one-line YAML change ${warm.seconds} s` +
        ` (load ${warm.loadBefore.join(" ")}), warm after restoring it ${warmRestore.seconds} s`,
    );
  }
  out.push(
    `Machine: ${results.machine.cpus} × ${results.machine.cpuModel}; load at start ${results.machine.loadStart.join(" ")}, at end ${results.machine.loadEnd.join(" ")}; bench took ${results.durationSeconds} s`,
  );
  const problems: string[] = [];
  for (const [route, byConfig] of Object.entries(results.routes)) {
    for (const [configName, result] of Object.entries(byConfig)) {
      const m = result.median;
      if (m.problems.length) problems.push(`  ${configName} ${route}: ${m.problems.join("; ")}`);
    }
  }
  if (problems.length) out.push(`\nAudits that cost points (in any run):\n${problems.join("\n")}`);
  return out.join("\n");
}

/* ------------------------------------------------------------------ main */

async function main() {
  const opts = options();
  if (opts.reportOnly) {
    const results = JSON.parse(fs.readFileSync(opts.out, "utf8")) as Results;
    console.log(tables(results));
    return finish(results, opts);
  }
  const started = performance.now();
  const loadStart = load();
  const build = opts.skipBuild ? null : buildAll();
  const withFixture = opts.routes.includes(FIXTURE_ROUTE);
  if (withFixture) await ensureFixtureSite();
  const jsFirst = jsLoadedFirst(opts.routes);
  // One after the other, so that the two free-port look-ups cannot race.
  const server = await serveBuiltSite();
  const fixtureServer = withFixture ? await serveBuiltSite({}, fixtureRoot).catch(stopFirst(server)) : undefined;
  let routes: Results["routes"];
  try {
    routes = await lighthouseAll(opts, (route) => (siteOf(route) === root ? server : fixtureServer!).origin);
  } finally {
    await Promise.all([server.stop(), fixtureServer?.stop()]);
  }
  const lhVersion = (
    JSON.parse(fs.readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8")) as {
      version: string;
    }
  ).version;
  const chromium = spawnSync(chromePath, ["--version"], {
    encoding: "utf8",
  }).stdout?.trim();
  const results: Results = {
    generatedAt: new Date().toISOString(),
    durationSeconds: round((performance.now() - started) / 1000),
    options: {
      routes: opts.routes.length === ALL_ROUTES.length ? "all" : opts.routes,
      runs: opts.runs,
      configs: opts.configs,
      skipBuild: opts.skipBuild,
    },
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? "unknown",
      node: process.version,
      lighthouse: lhVersion,
      chromium,
      loadStart,
      loadEnd: load(),
    },
    budgets: BUDGETS,
    build,
    jsFirst,
    routes,
  };
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(tables(results));
  console.log(`\nResults: ${path.relative(root, opts.out)}; Lighthouse reports: ${path.relative(root, runsDir)}/`);
  return finish(results, opts);
}

/** Stops a server already started when the next one fails to start, and passes the failure on. */
const stopFirst = (server: { stop: () => Promise<void> }) => async (error: unknown) => {
  await server.stop();
  throw error;
};

function finish(results: Results, opts: Options) {
  if (!opts.check) return;
  const { misses, notMeasured } = checkBudgets(results);
  for (const n of notMeasured) console.log(`budget not checked: ${n}`);
  if (misses.length === 0) {
    console.log("\nAll budgets met.");
    return;
  }
  console.log(`\n${misses.length} budget(s) missed:`);
  for (const m of misses) console.log(`  ✗ ${m}`);
  process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
