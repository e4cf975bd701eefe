/**
 * The performance benchmark of the built site (`npm run bench`, which runs this file with tsx).
 *
 * 1. Builds the production site from cold (empty .cache/ and public/), then rebuilds it warm after
 *    changing one line of one YAML file, and once more after putting the line back, timing each.
 * 2. Counts the JavaScript each page loads, from its built HTML (page-scripts.ts: script files,
 *    modules and their imports, Gatsby's runtime where a page starts it), gzip and brotli compressed,
 *    and whether the page has behaviour (a module script).
 * 3. Serves public/ with `gatsby serve` on loopback and runs Lighthouse (Debian's Chromium through
 *    CHROME_PATH) on every route in the mobile configuration (simulated throttling, 4x CPU
 *    slowdown), the same at 8x (`mobile-8x`) and the desktop one, N runs each (3 by default), taking
 *    the median of each figure. The page of every section type is among the routes: it is measured in
 *    the fixture site's build (built when out of date, __tests__/support/fixture-site.ts), served the
 *    same way, with the same budgets.
 * 4. With --navigation, times clicks on menu links to the next page's LCP in Chromium at 4x CPU
 *    throttling (navigation.ts), median of --navigation-runs; with --navigation-before DIR (a copy of
 *    the project at an earlier commit, with its public/ built), the same clicks on that build too, in
 *    turns with these.
 * 5. Writes bench/results.json, prints a table per configuration and, with --check, each budget
 *    missed (budgets.ts; exit code 1 if any); with --markdown FILE (or -), the figures as markdown tables;
 *    with --save-report, docs/benchmarks/bench.md and bench.json: the command, the machine, its load at
 *    the start and the end, and the tables (report.ts; not with --report, which measures nothing).
 *
 * Usage: npm run bench -- [--check] [--routes /home,/contact] [--runs 3] [--configs mobile,mobile-8x,desktop|none]
 *                         [--navigation] [--navigation-runs 5] [--navigation-hover 0] [--navigation-press 0]
 *                         [--navigation-before DIR]
 *                         [--markdown FILE|-]
 *                         [--skip-build] [--max-load 2] [--report] [--out bench/results.json]
 *                         [--save-report]
 * docs/performance.md explains the options, the budgets and how the figures are made.
 * Timings depend on the machine and its load: this is not a test, and `npm test` does not run it.
 * `--report --check` on an existing results file measures nothing: it prints and checks it.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ensureFixtureSite, fixturePage, fixtureRoot } from "../../__tests__/support/fixture-site";
import { readContent, siteRoutes } from "../../src/node/content/read-content";
import { chromePath, chromiumArgs } from "../chromium";
import { serveBuiltSite } from "../serve-built-site";
import {
  BUDGETS,
  CATEGORIES,
  CONFIG_NAMES,
  FIGURE_KEYS,
  checkBudgets,
  kb,
  type Builds,
  type Category,
  type ConfigName,
  type Figures,
  type Results,
  type Timing,
} from "./budgets";
import { markdownTables, navigationTable, pointerOf } from "./markdown";
import { clickToLcp } from "./navigation";
import { pageScripts, type PageScripts, type Sizes } from "./page-scripts";
import { startReport, writeReport } from "./report";
import { siteReport } from "./site-report";

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

interface Options {
  maxLoad: number | null;
  check: boolean;
  routes: string[];
  runs: number;
  configs: ConfigName[];
  skipBuild: boolean;
  reportOnly: boolean;
  out: string;
  navigation: boolean;
  navigationRuns: number;
  navigationHoverMs: number;
  navigationPressMs: number;
  navigationBefore: string | null;
  markdown: string | null;
  saveReport: boolean;
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
      configs: { type: "string", default: "mobile,mobile-8x,desktop" },
      navigation: { type: "boolean", default: false },
      "navigation-runs": { type: "string", default: "5" },
      "navigation-hover": { type: "string", default: "0" },
      "navigation-press": { type: "string", default: "0" },
      "navigation-before": { type: "string" },
      markdown: { type: "string" },
      "skip-build": { type: "boolean", default: false },
      report: { type: "boolean", default: false },
      "save-report": { type: "boolean", default: false },
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
  // "none": no Lighthouse run (the JavaScript count and, with --navigation, the clicks only).
  const configs = (values.configs.trim() === "none" ? [] : values.configs.split(",")).map((c) => {
    const name = c.trim();
    if (!CONFIG_NAMES.includes(name as ConfigName)) throw new Error(`unknown configuration ${name}`);
    return name as ConfigName;
  });
  const navigationRuns = Number(values["navigation-runs"]);
  if (!Number.isInteger(navigationRuns) || navigationRuns < 1 || navigationRuns > 15)
    throw new Error("--navigation-runs must be a whole number from 1 to 15");
  const navigationHoverMs = Number(values["navigation-hover"]);
  if (!Number.isInteger(navigationHoverMs) || navigationHoverMs < 0 || navigationHoverMs > 5000)
    throw new Error("--navigation-hover must be a whole number of milliseconds from 0 to 5000");
  const navigationPressMs = Number(values["navigation-press"]);
  if (!Number.isInteger(navigationPressMs) || navigationPressMs < 0 || navigationPressMs > 1000)
    throw new Error("--navigation-press must be a whole number of milliseconds from 0 to 1000");
  const navigationBefore = values["navigation-before"] === undefined ? null : path.resolve(values["navigation-before"]);
  if (navigationBefore !== null && !fs.existsSync(path.join(navigationBefore, "public", "index.html")))
    throw new Error(`--navigation-before: ${navigationBefore} has no built public/ (build it there first)`);
  if (values.report && values["save-report"])
    throw new Error("--save-report records a run: --report measures nothing, so the two do not go together");
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
    navigation: values.navigation,
    navigationRuns,
    navigationHoverMs,
    navigationPressMs,
    navigationBefore,
    markdown: values.markdown === undefined || values.markdown === "-" ? (values.markdown ?? null) : path.resolve(values.markdown),
    saveReport: values["save-report"],
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

/* ------------------------------------------------------------------ JavaScript per route */

/** Every route's scripts, from its built HTML (page-scripts.ts); a shared file is compressed once per site. */
function jsPerRoute(routes: readonly string[]): Record<string, PageScripts> {
  const caches = new Map<string, Map<string, Sizes>>();
  const perRoute: Record<string, PageScripts> = {};
  for (const route of routes) {
    const site = siteOf(route);
    if (!caches.has(site)) caches.set(site, new Map());
    try {
      perRoute[route] = pageScripts(path.join(site, "public"), route, caches.get(site));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(`bench: ${message} (build first, or drop --skip-build)`);
    }
  }
  return perRoute;
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
  // The default configuration is the mobile one, with simulated throttling (Slow 4G, 4x CPU slowdown).
  const config =
    configName === "desktop"
      ? (await import("lighthouse/core/config/desktop-config.js")).default
      : configName === "mobile-8x"
        ? {
            extends: "lighthouse:default" as const,
            settings: {
              throttling: { ...(await import("lighthouse/core/config/constants.js")).throttling.mobileSlow4G, cpuSlowdownMultiplier: 8 },
            },
          }
        : undefined;
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
    jsRequests: summary.get("script")?.requestCount ?? null,
    imageBytes: summary.get("image")?.transferSize ?? null,
    requests: summary.get("total")?.requestCount ?? null,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    load1: round(os.loadavg()[0] ?? 0, 2),
    lcpElement: lcpItem?.items?.[0]?.node?.snippet ?? null,
    problems,
  };
}


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

const sec = (ms: number | null) => (ms === null ? "–" : (ms / 1000).toFixed(2));

const CONFIG_TITLES: Record<ConfigName, string> = {
  mobile: "Mobile (simulated Slow 4G, 4× CPU slowdown)",
  "mobile-8x": "Mobile at twice the CPU slowdown (simulated Slow 4G, 8× CPU slowdown)",
  desktop: "Desktop (simulated, no CPU slowdown)",
};

function tables(results: Results): string {
  const out: string[] = [];
  const configs = new Set(Object.values(results.routes).flatMap((r) => Object.keys(r)));
  for (const configName of CONFIG_NAMES.filter((c) => configs.has(c))) {
    out.push(
      `\n${CONFIG_TITLES[configName]}: median of ${results.options.runs} run(s)\n`,
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
  if (results.js) {
    out.push("\nJavaScript per route, from the built HTML (every script file the page loads, imports included)\n");
    out.push("| route | behaviour | files | gzip KB | brotli KB | inline scripts | files loaded |");
    out.push("| --- | --- | --: | --: | --: | --: | --- |");
    for (const [route, js] of Object.entries(results.js)) {
      out.push(
        `| ${route} | ${js.hasBehaviour ? "yes" : "no"} | ${js.files.length} | ${kb(js.gzip)} | ${kb(js.brotli)} | ${js.inline.count} | ${js.files.map((f) => f.file).join(" ") || "–"} |`,
      );
    }
  }
  if (results.navigation) {
    const n = results.navigation;
    out.push(
      `\nClick on a menu link to the next page's LCP, ${n.cpuThrottling}× CPU throttling${pointerOf(n)}, median of ${n.runsPerClick}\n`,
    );
    out.push(...navigationTable(n));
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
    writeMarkdown(results, opts);
    return finish(results, opts);
  }
  const started = performance.now();
  const loadStart = load();
  const report = startReport("bench", "Site benchmark: Lighthouse, JavaScript per route, clicks, builds", "bench");
  const build = opts.skipBuild ? null : buildAll();
  const withFixture = opts.routes.includes(FIXTURE_ROUTE);
  if (withFixture) await ensureFixtureSite();
  const js = jsPerRoute(opts.routes);
  // One after the other, so that the two free-port look-ups cannot race.
  const server = await serveBuiltSite();
  const fixtureServer = withFixture ? await serveBuiltSite({}, fixtureRoot).catch(stopFirst(server)) : undefined;
  let routes: Results["routes"];
  let navigation: Results["navigation"] = null;
  try {
    routes = await lighthouseAll(opts, (route) => (siteOf(route) === root ? server : fixtureServer!).origin);
    if (opts.navigation) {
      console.log(`\n== Click to LCP: ${opts.navigationRuns} runs per click`);
      navigation = await clickOnEachBuild(opts, server.origin);
    }
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
      commit: spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).stdout?.trim(),
      loadStart,
      loadEnd: load(),
    },
    budgets: BUDGETS,
    build,
    js,
    routes,
    navigation,
  };
  fs.mkdirSync(path.dirname(opts.out), { recursive: true });
  fs.writeFileSync(opts.out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(tables(results));
  console.log(`\nResults: ${path.relative(root, opts.out)}; Lighthouse reports: ${path.relative(root, runsDir)}/`);
  writeMarkdown(results, opts);
  if (opts.saveReport) {
    const page = writeReport(report.finish({ ...siteReport(results), data: results }));
    console.log(`Report: ${path.relative(root, page)}`);
  }
  return finish(results, opts);
}

const pointerTiming = (opts: Options) => ({ hoverMs: opts.navigationHoverMs, pressMs: opts.navigationPressMs });

/** The clicks on this build and, with --navigation-before, on the earlier one served beside it. */
async function clickOnEachBuild(opts: Options, origin: string): Promise<NonNullable<Results["navigation"]>> {
  if (!opts.navigationBefore) {
    const { before: _none, ...measured } = await clickToLcp(origin, opts.navigationRuns, undefined, pointerTiming(opts));
    return measured;
  }
  const dir = opts.navigationBefore;
  const beforeServer = await serveBuiltSite({}, dir);
  try {
    const { before, ...measured } = await clickToLcp(
      origin,
      opts.navigationRuns,
      undefined,
      pointerTiming(opts),
      console.log,
      beforeServer.origin,
    );
    const commit = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: dir, encoding: "utf8" }).stdout?.trim();
    return { ...measured, before: { dir, commit, clicks: before ?? [] } };
  } finally {
    await beforeServer.stop();
  }
}

/** Stops a server already started when the next one fails to start, and passes the failure on. */
const stopFirst = (server: { stop: () => Promise<void> }) => async (error: unknown) => {
  await server.stop();
  throw error;
};

/** --markdown: the figures as markdown tables (docs/performance.md's), to a file or to stdout ("-"). */
function writeMarkdown(results: Results, opts: Options) {
  if (opts.markdown === null) return;
  const text = markdownTables(results);
  if (opts.markdown === "-") {
    console.log(`\n${text}`);
  } else {
    fs.mkdirSync(path.dirname(opts.markdown), { recursive: true });
    fs.writeFileSync(opts.markdown, text);
    console.log(`Markdown tables: ${opts.markdown}`);
  }
}

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
