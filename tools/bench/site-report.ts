/**
 * `npm run bench -- --save-report`: the site benchmark's results as the tables of its report in
 * docs/benchmarks/ (report.ts renders the page). One table per Lighthouse configuration, the JavaScript
 * per route, the clicks, the builds and the budgets `--check` applies, each miss named.
 */
import { checkBudgets, CONFIG_NAMES, kb, type ConfigName, type Results } from "./budgets";
import { pointerOf } from "./markdown";
import type { ReportTable } from "./report";

const sec = (ms: number | null) => (ms === null ? "–" : (ms / 1000).toFixed(2));
const text = (value: number | null | undefined) => (value == null ? "–" : String(value));

const CONFIG_TITLES: Record<ConfigName, string> = {
  mobile: "Lighthouse, mobile (simulated Slow 4G, 4× CPU slowdown)",
  "mobile-8x": "Lighthouse, mobile at 8× CPU slowdown (a low-end phone)",
  desktop: "Lighthouse, desktop",
};

export function siteReport(results: Results): { summary: string[]; tables: ReportTable[] } {
  const tables: ReportTable[] = [];
  const o = results.options;
  const runs = o.runs === 1 ? "one run" : `median of ${o.runs} runs`;
  for (const config of CONFIG_NAMES) {
    const rows = Object.entries(results.routes).flatMap(([route, byConfig]) => {
      const m = byConfig[config]?.median;
      if (!m) return [];
      return [
        [
          route,
          ...[m.performance, m.accessibility, m["best-practices"], m.seo].map(text),
          sec(m.fcpMs),
          sec(m.lcpMs),
          text(m.tbtMs),
          text(m.cls),
          kb(m.transferBytes),
          kb(m.jsBytes),
          text(m.requests),
          text(m.benchmarkIndex),
        ],
      ];
    });
    if (rows.length === 0) continue;
    tables.push({
      title: CONFIG_TITLES[config],
      columns: ["route", "perf", "a11y", "BP", "SEO", "FCP s", "LCP s", "TBT ms", "CLS", "total KB", "JS KB", "requests", "BI"],
      right: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
      rows,
      notes: [
        `Each figure the ${runs} per route. BI: Lighthouse's benchmark index of the machine during the run ` +
          "(higher is faster); a figure under load is lower than on a quiet machine.",
      ],
    });
  }
  if (results.js) {
    tables.push({
      title: "JavaScript per route, from the built HTML",
      columns: ["route", "behaviour", "files", "gzip KB", "brotli KB", "inline scripts", "files loaded"],
      right: [2, 3, 4, 5],
      rows: Object.entries(results.js).map(([route, js]) => [
        route,
        js.hasBehaviour ? "yes" : "no",
        String(js.files.length),
        kb(js.gzip),
        kb(js.brotli),
        String(js.inline.count),
        js.files.map((f) => f.file).join(" ") || "–",
      ]),
      notes: ["Exact, whatever the machine: every script file the page's HTML loads, its imports included."],
    });
  }
  const nav = results.navigation;
  if (nav) {
    const kinds = (k: Record<string, number>) =>
      Object.entries(k)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(", ");
    tables.push({
      title: `Click on a menu link to the next page's LCP (${nav.cpuThrottling}× CPU throttling${pointerOf(nav)})`,
      columns: ["click", "median ms", "runs (ms)", "navigation"],
      right: [1],
      rows: nav.clicks.map((c) => [
        `${c.from} → ${c.to}`,
        text(c.medianMs),
        c.runs.map((r) => r.ms ?? "–").join(", "),
        kinds(c.kinds),
      ]),
      notes: [`Median of ${nav.runsPerClick} runs per click, each in a new browser context.`],
    });
  }
  if (results.build) {
    const { cold, warm, warmRestore } = results.build;
    tables.push({
      title: "Builds",
      columns: ["build", "seconds", "load average before"],
      right: [1],
      rows: [
        ["cold (gatsby clean, then gatsby build)", String(cold.seconds), cold.loadBefore.join(" ")],
        [`warm, after changing ${warm.changed}`, String(warm.seconds), warm.loadBefore.join(" ")],
        ["warm, after putting the line back", String(warmRestore.seconds), warmRestore.loadBefore.join(" ")],
      ],
    });
  }
  const { misses, notMeasured } = checkBudgets(results);
  tables.push({
    title: "Budgets (`--check`)",
    columns: ["budget", "result"],
    rows: [
      ...misses.map((m) => [m, "missed"]),
      ...notMeasured.map((n) => [n, "not measured"]),
      ...(misses.length === 0 ? [["every budget measured", "met"]] : []),
    ],
  });
  const m = results.machine;
  const summary = [
    `Commit ${m.commit ?? "?"}; Lighthouse ${m.lighthouse ?? "?"}; ${m.chromium ?? "Chromium"}.`,
    `Routes: ${o.routes === "all" ? "all" : o.routes.length}; Lighthouse configurations: ${o.configs.join(", ") || "none"}` +
      `, ${runs} each; ${o.skipBuild ? "the built public/ measured as it was (--skip-build)" : "built from cold first"}.`,
  ];
  return { summary, tables };
}
