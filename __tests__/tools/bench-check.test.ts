/**
 * @jest-environment node
 *
 * `npm run bench -- --check` on a results file (`--report` reads one instead of measuring): it names
 * every budget missed and exits 1, and exits 0 when all are met. No Lighthouse run, no timing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const bench = path.resolve(__dirname, "../../tools/bench/bench.ts");

const good = {
  performance: 100,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
  fcpMs: 700,
  lcpMs: 900,
  tbtMs: 20,
  cls: 0,
  siMs: 700,
};
const median = (overrides: Record<string, number>) => ({
  ...good,
  transferBytes: 150 * 1024,
  jsBytes: 95 * 1024,
  jsRequests: 5,
  imageBytes: 9 * 1024,
  requests: 17,
  benchmarkIndex: 1900,
  load1: 1,
  problems: [],
  lcpElement: null,
  ...overrides,
});

/** The JavaScript of a page as page-scripts.ts counts it: one module island of `gzip` bytes, or none. */
const js = (gzip: number) => ({
  hasBehaviour: gzip > 0,
  gatsbyRuntime: false,
  files: gzip > 0 ? [{ file: "/islands/form.js", via: "module", raw: gzip * 3, gzip, brotli: gzip - 100 }] : [],
  inline: { count: 0, raw: 0 },
  external: [],
  missing: [],
  raw: gzip * 3,
  gzip,
  brotli: Math.max(0, gzip - 100),
});

function results(
  mobile: Record<string, number>,
  build: { cold: number; warm: number },
  jsGzip: number,
  mobile8x: Record<string, number> = {},
) {
  const timing = (seconds: number) => ({ seconds, loadBefore: [1, 1, 1], loadAfter: [1, 1, 1] });
  return {
    durationSeconds: 1,
    options: { routes: ["/home", "/contact"], runs: 3, configs: ["mobile", "mobile-8x", "desktop"], skipBuild: false },
    machine: { cpus: 2, cpuModel: "test", loadStart: [1, 1, 1], loadEnd: [1, 1, 1] },
    build: {
      cold: timing(build.cold),
      warm: { ...timing(build.warm), changed: "data/about/about.yaml:3" },
      warmRestore: timing(build.warm),
    },
    js: { "/home": js(0), "/contact": js(jsGzip) },
    routes: {
      "/home": {
        mobile: { median: median(mobile), runs: [] },
        "mobile-8x": { median: median(mobile8x), runs: [] },
        desktop: { median: median({}), runs: [] },
      },
      "/contact": {
        mobile: { median: median({}), runs: [] },
        "mobile-8x": { median: median({}), runs: [] },
        desktop: { median: median({ seo: 92 }), runs: [] },
      },
    },
  };
}

function check(data: unknown) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-check-"));
  const file = path.join(dir, "results.json");
  fs.writeFileSync(file, JSON.stringify(data));
  try {
    return spawnSync(process.execPath, ["--import", "tsx", bench, "--report", "--check", "--out", file], {
      encoding: "utf8",
      timeout: 30_000,
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

test("each budget missed is named and the exit code is 1", () => {
  const run = check(
    results(
      { performance: 95, tbtMs: 240, lcpMs: 1600, cls: 0.02, transferBytes: 320 * 1024 },
      { cold: 130, warm: 25 },
      11 * 1024,
      { tbtMs: 75 },
    ),
  );
  expect(run.status).toBe(1);
  for (const miss of [
    "mobile /home: performance 95 < 100",
    "mobile /home: LCP 1600 ms > 1500 ms",
    "mobile /home: TBT 240 ms > 50 ms",
    "mobile /home: CLS 0.02 > 0.01",
    "mobile /home: 320.0 KB transferred > 300.0 KB",
    "desktop /contact: SEO 92 < 100",
    "mobile-8x /home: TBT 75 ms > 50 ms",
    "/contact: JavaScript 11.0 KB gzip > 10.0 KB (1 file(s))",
    "cold build 130 s > 120 s",
    "warm rebuild 25 s > 20 s",
  ]) {
    expect(run.stdout).toContain(`✗ ${miss}`);
  }
  expect(run.stdout).toContain("10 budget(s) missed");
});

test("with every budget met it says so and exits 0", () => {
  const data = results({}, { cold: 70, warm: 12 }, 9 * 1024);
  data.routes["/contact"].desktop.median.seo = 100;
  const run = check(data);
  expect(run.stdout).toContain("All budgets met.");
  expect(run.status).toBe(0);
  // The table shows the figures it checked.
  expect(run.stdout).toMatch(/\| \/home \| 100 \| 100 \| 100 \| 100 \| 0\.70 \| 0\.90 \| 20 \| 0 \|/);
});

test("clicks measured on an earlier build too are reported beside this build's, click by click", () => {
  const run = (ms: number, kind: string) => ({ ms, kind });
  const click = (from: string, to: string, runs: Array<{ ms: number; kind: string }>, medianMs: number) => ({
    from,
    to,
    medianMs,
    kinds: { [runs[0]!.kind]: runs.length },
    runs,
  });
  const data = {
    ...results({}, { cold: 70, warm: 12 }, 9 * 1024),
    navigation: {
      runsPerClick: 3,
      cpuThrottling: 4,
      hoverMs: 300,
      pressMs: 100,
      clicks: [
        click("/home", "/aboutus", [run(120, "prerendered"), run(90, "prerendered"), run(100, "prerendered")], 100),
      ],
      before: {
        dir: "/tmp/before",
        commit: "e1a8ab7",
        clicks: [click("/home", "/aboutus", [run(700, "soft"), run(650, "soft"), run(900, "soft")], 700)],
      },
    },
  };
  const out = check(data).stdout;
  expect(out).toContain("Before: commit e1a8ab7");
  expect(out).toContain("| click (4x CPU throttling, 300 ms hover first, pressed 100 ms) | before, median ms |");
  expect(out).toContain("| /home → /aboutus | 700 | 700, 650, 900 | soft 3 | 100 | 120, 90, 100 | prerendered 3 |");
});
