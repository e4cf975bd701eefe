/**
 * The benchmark's figures as the markdown tables of docs/performance.md (`--markdown FILE`, or `-` for
 * stdout): one row per route (JavaScript, then Lighthouse's mobile run at 4x and 8x CPU slowdown) and
 * one per click (click-to-LCP), with the machine's figures under them.
 */
import type { ConfigName, Figures, NavigationResult, Results } from "./budgets";
import { kb } from "./budgets";

const sec = (ms: number | null | undefined) => (ms == null ? "–" : (ms / 1000).toFixed(2));
const num = (n: number | null | undefined) => (n == null ? "–" : String(Math.round(n)));

function range(values: number[]): string {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return "–";
  const mid = v[Math.floor(v.length / 2)]!;
  return `${Math.round(mid)} (${Math.round(v[0]!)} to ${Math.round(v[v.length - 1]!)})`;
}

export function markdownTables(results: Results): string {
  const out: string[] = [];
  const routes = [...new Set([...Object.keys(results.js ?? {}), ...Object.keys(results.routes)])];
  const fig = (route: string, config: ConfigName): Partial<Figures> => results.routes[route]?.[config]?.median ?? {};
  out.push(
    "| route | behaviour | JS gzip KB | JS brotli KB | script requests | inline scripts | perf 4x | TBT 4x ms | LCP 4x s | perf 8x | TBT 8x ms | LCP 8x s |",
  );
  out.push("| --- | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
  for (const route of routes) {
    const js = results.js?.[route];
    const m4 = fig(route, "mobile");
    const m8 = fig(route, "mobile-8x");
    out.push(
      [
        route,
        js ? (js.hasBehaviour ? "yes" : "no") : "–",
        js ? kb(js.gzip) : "–",
        js ? kb(js.brotli) : "–",
        js ? String(js.files.length) : "–",
        js ? String(js.inline.count) : "–",
        num(m4.performance),
        num(m4.tbtMs),
        sec(m4.lcpMs),
        num(m8.performance),
        num(m8.tbtMs),
        sec(m8.lcpMs),
      ]
        .join(" | ")
        .replace(/^/, "| ")
        .concat(" |"),
    );
  }
  const index: Record<string, number[]> = {};
  for (const byConfig of Object.values(results.routes))
    for (const [config, result] of Object.entries(byConfig))
      for (const run of result.runs) if (run.benchmarkIndex !== null) (index[config] ??= []).push(run.benchmarkIndex);
  const machine = results.machine;
  out.push("");
  out.push(
    (results.options.configs.length
      ? `Lighthouse ${machine.lighthouse ?? "?"}, ${machine.chromium ?? "Chromium"}, ${results.options.runs === 1 ? "one run" : `median of ${results.options.runs} runs`} per route and configuration; `
      : "No Lighthouse run; ") +
      `commit ${machine.commit ?? "?"}, ${results.generatedAt?.slice(0, 16).replace("T", " ") ?? "?"} UTC; ` +
      `${machine.cpus} × ${machine.cpuModel}, load average ${machine.loadStart.join(" ")} at the start, ${machine.loadEnd.join(" ")} at the end.`,
  );
  const indexes = Object.entries(index).map(([config, values]) => `${config} ${range(values)}`);
  if (indexes.length) out.push(`Lighthouse's benchmarkIndex of the machine, median (range) over the runs: ${indexes.join("; ")}.`);
  if (results.navigation) out.push("", ...navigationTable(results.navigation));
  return `${out.join("\n")}\n`;
}

const kindsOf = (c: NavigationResult) =>
  Object.entries(c.kinds)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(", ");
const runsOf = (c: NavigationResult) => c.runs.map((r) => r.ms ?? "–").join(", ");

/** How the pointer acted before each click, as it follows the throttling in a title: "" for a plain tap. */
export const pointerOf = (nav: NonNullable<Results["navigation"]>): string =>
  (nav.hoverMs ? `, ${nav.hoverMs} ms hover first` : "") + (nav.pressMs ? `, pressed ${nav.pressMs} ms` : "");

/** The clicks as a markdown table: this build's, or the earlier build's beside it. */
export function navigationTable(nav: NonNullable<Results["navigation"]>): string[] {
  const click = `click (${nav.cpuThrottling}x CPU throttling${pointerOf(nav)})`;
  if (!nav.before) {
    return [
      `| ${click} | click-to-LCP, median ms | runs (ms) | navigation |`,
      "| --- | --: | --- | --- |",
      ...nav.clicks.map((c) => `| ${c.from} → ${c.to} | ${c.medianMs ?? "–"} | ${runsOf(c)} | ${kindsOf(c)} |`),
    ];
  }
  const before = nav.before;
  return [
    `Before: commit ${before.commit ?? before.dir}, each of its clicks right before the same click on this build.`,
    "",
    `| ${click} | before, median ms | runs (ms) | navigation | after, median ms | runs (ms) | navigation |`,
    "| --- | --: | --- | --- | --: | --- | --- |",
    ...nav.clicks.map((c, i) => {
      const b = before.clicks[i];
      const was = b ? `${b.medianMs ?? "–"} | ${runsOf(b)} | ${kindsOf(b)}` : "– | – | –";
      return `| ${c.from} → ${c.to} | ${was} | ${c.medianMs ?? "–"} | ${runsOf(c)} | ${kindsOf(c)} |`;
    }),
  ];
}
