/**
 * The benchmark's budgets, all in one place, and the check of a results file against them
 * (`npm run bench -- --check`, or `--report --check` on results already measured). Kept apart from
 * bench.ts, which measures as soon as it is run, so that a unit test can check the logic.
 */
import type { PageScripts } from "./page-scripts";

const KB = 1024;

export const BUDGETS = {
  /** Lighthouse's mobile run at its default CPU slowdown (4x) and simulated Slow 4G; median of the runs. */
  mobile: { performance: 100, accessibility: 100, "best-practices": 100, seo: 100, lcpMs: 1500, tbtMs: 50, cls: 0.01 },
  /** The same at twice the CPU slowdown (8x): a low-end phone. */
  "mobile-8x": { tbtMs: 50 },
  desktop: { performance: 100, accessibility: 100, "best-practices": 100, seo: 100 },
  /** JavaScript per page, counted from the built HTML (page-scripts.ts). */
  js: {
    /** A page without behaviour (no `<script type="module" src>`): script files and inline scripts that run. */
    withoutBehaviourScripts: 0,
    /** A page with behaviour: every script it loads, gzip (the larger of gzip and brotli). */
    withBehaviourGzipBytes: 10 * KB,
  },
  homeMobileTransferBytes: 300 * KB,
  coldBuildSeconds: 120,
  warmBuildSeconds: 20,
};

export const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
export type Category = (typeof CATEGORIES)[number];
export const CONFIG_NAMES = ["mobile", "mobile-8x", "desktop"] as const;
export type ConfigName = (typeof CONFIG_NAMES)[number];

export const FIGURE_KEYS = [
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
  "jsRequests",
  "imageBytes",
  "requests",
  "benchmarkIndex",
  "load1",
] as const;

/** The figures of one Lighthouse run (or their medians); null where Lighthouse gave none. */
export type Figures = Record<(typeof FIGURE_KEYS)[number], number | null> & {
  lcpElement: string | null;
  problems: string[];
};

export interface RouteResult {
  median: Figures;
  runs: Array<Omit<Figures, "problems" | "lcpElement">>;
}

export interface Timing {
  seconds: number;
  loadBefore: number[];
  loadAfter: number[];
}

export interface Builds {
  cold: Timing;
  warm: Timing & { changed: string };
  warmRestore: Timing;
}

/** One click from a menu link to the next page's largest paint (navigation.ts). */
export interface NavigationRun {
  ms: number | null;
  /** "document": a new page loaded; "prerendered": activated from a prerender; "soft": Gatsby's router. */
  kind: "document" | "prerendered" | "soft" | "failed";
  error?: string;
}

export interface NavigationResult {
  from: string;
  to: string;
  medianMs: number | null;
  kinds: Record<string, number>;
  runs: NavigationRun[];
}

export interface Results {
  generatedAt?: string;
  durationSeconds: number | null;
  options: { routes: "all" | string[]; runs: number; configs: ConfigName[]; skipBuild: boolean };
  machine: {
    cpus: number;
    cpuModel: string;
    node?: string;
    lighthouse?: string;
    chromium?: string;
    commit?: string;
    loadStart: number[];
    loadEnd: number[];
  };
  budgets?: typeof BUDGETS;
  build: Builds | null;
  /** JavaScript per route, from the built HTML. */
  js?: Record<string, PageScripts> | null;
  routes: Record<string, Partial<Record<ConfigName, RouteResult>>>;
  navigation?: {
    runsPerClick: number;
    cpuThrottling: number;
    hoverMs?: number;
    pressMs?: number;
    clicks: NavigationResult[];
    /** With --navigation-before: the same clicks on the earlier build, in turns with these. */
    before?: { dir: string; commit?: string; clicks: NavigationResult[] };
  } | null;
}

export const kb = (bytes: number | null) => (bytes === null ? "–" : (bytes / KB).toFixed(1));

/** The JavaScript budgets of one page; each miss named. */
export function jsMisses(route: string, js: PageScripts): string[] {
  const misses: string[] = [];
  for (const file of js.missing) misses.push(`${route}: loads ${file}, which is not in public/`);
  for (const url of js.external) misses.push(`${route}: loads a script from another origin, ${url}`);
  if (!js.hasBehaviour) {
    const scripts = js.files.length + js.inline.count;
    if (scripts > BUDGETS.js.withoutBehaviourScripts) {
      const what = [
        js.files.length ? `${js.files.length} script file(s), ${kb(js.gzip)} KB gzip` : "",
        js.inline.count ? `${js.inline.count} inline script(s)` : "",
      ].filter(Boolean);
      misses.push(`${route}: no behaviour (no module script) but ${what.join(" and ")}${js.gatsbyRuntime ? " (Gatsby's runtime)" : ""}`);
    }
  } else if (js.gzip > BUDGETS.js.withBehaviourGzipBytes) {
    misses.push(
      `${route}: JavaScript ${kb(js.gzip)} KB gzip > ${kb(BUDGETS.js.withBehaviourGzipBytes)} KB (${js.files.length} file(s)${js.gatsbyRuntime ? ", Gatsby's runtime" : ""})`,
    );
  }
  return misses;
}

const LABELS: Record<Category, string> = {
  performance: "performance",
  accessibility: "accessibility",
  "best-practices": "best practices",
  seo: "SEO",
};

export function checkBudgets(results: Results): { misses: string[]; notMeasured: string[] } {
  const misses: string[] = [];
  const notMeasured: string[] = [];
  // A figure Lighthouse did not give (null) misses its budget.
  const within = (value: number | null, limit: number) => value !== null && value <= limit;
  for (const [route, byConfig] of Object.entries(results.routes)) {
    for (const [configName, result] of Object.entries(byConfig) as Array<[ConfigName, RouteResult]>) {
      const m = result.median;
      const b: Partial<typeof BUDGETS.mobile> = BUDGETS[configName] ?? {};
      for (const c of CATEGORIES) {
        const limit = b[c];
        if (limit === undefined) continue;
        const value = m[c];
        if (value === null || value < limit) misses.push(`${configName} ${route}: ${LABELS[c]} ${value} < ${limit}`);
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
  const measured = (c: ConfigName) => Object.values(results.routes).some((r) => r[c]);
  if (!results.routes["/home"]?.mobile)
    notMeasured.push("total transferred on /home (mobile): /home was not run on mobile");
  if (!measured("mobile")) notMeasured.push("Lighthouse at 4x CPU slowdown: the mobile configuration was not run");
  if (!measured("mobile-8x")) notMeasured.push("TBT at 8x CPU slowdown: the mobile-8x configuration was not run");
  if (results.js) {
    for (const [route, js] of Object.entries(results.js)) misses.push(...jsMisses(route, js));
  } else {
    notMeasured.push("JavaScript per route: not in the results");
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
