/**
 * The release's benchmark (`npm run bench:release`), for the figures in docs/performance.md: in the
 * place the release test uses (__tests__/deploy/support/release-site.ts: a bare repository for the
 * git host, nginx on loopback, the site's service with its push hook), on this machine:
 *
 * 1. the first release from nothing (packages copied from the release user's copy, a cold build);
 * 2. `--runs` times, a one-text change pushed and announced to the push hook as GitHub does, then
 *    `npm run release -- --wanted` as the path unit starts it: seconds from the push to the live
 *    /home showing the new text;
 * 3. `--rollback`: seconds until the previous text is served.
 *
 * For each release it also says what it cost: the seconds of each step (from the times of the release's
 * own log, shared/logs/<id>.log: the same for any version of the runner) and the disk it added to the
 * release root (`du` of the whole root before and after: a file shared by hard link or reached by a
 * symlink counts once), with the packages' part of it (node_modules and admin/node_modules of the new
 * release, and what the packages' store, shared/packages/, grew by).
 *
 * Timings depend on the machine and its load (the load average is printed): this is not a test.
 * Usage: npm run bench:release -- [--runs 3] [--save-report]
 * --save-report also writes docs/benchmarks/bench-release.md and bench-release.json: the command, the
 * machine, its load at the start and the end, and the table (./report.ts). --help prints this.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startReleaseSite } from "../../__tests__/deploy/support/release-site";
import { markdownTable, startReport, writeReport, type ReportTable } from "./report";

const HEADING = "Welcome to Cyrus";

/** Kilobytes `du` counts under the folders given, each file once (0 for none that exist). */
function diskKb(...dirs: string[]): number {
  const present = dirs.filter((dir) => fs.existsSync(dir));
  if (present.length === 0) return 0;
  const out = execFileSync("du", ["-sk", "--total", ...present], { encoding: "utf8" });
  return Number(/^(\d+)\s+total$/m.exec(out)?.[1] ?? 0);
}

const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`;

/** Seconds of each step of the newest release attempt, from the times its log notes them at. */
function stepSeconds(root: string): Record<string, number> {
  const logs = path.join(root, "shared", "logs");
  const newest = fs
    .readdirSync(logs)
    .filter((name) => name.endsWith(".log"))
    .sort()
    .at(-1);
  const steps: Array<[string, number]> = [];
  for (const line of newest ? fs.readFileSync(path.join(logs, newest), "utf8").split("\n") : []) {
    const match = /^\[([^\]]+)\] release: (\S.*)$/.exec(line);
    if (!match) continue;
    const [, time = "", what = ""] = match;
    // A step's line is its name alone; "<id> is live" ends the last one.
    if (/^[a-z -]+$/.test(what) || / is live$/.test(what)) steps.push([what, Date.parse(time)]);
  }
  const seconds: Record<string, number> = {};
  steps.slice(0, -1).forEach(([name, at], i) => (seconds[name] = (steps[i + 1]![1] - at) / 1000));
  return seconds;
}

interface Cost {
  what: string;
  seconds: number;
  dependencies?: number;
  diskKb: number;
  packagesKb: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "3" },
      "save-report": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(fs.readFileSync(__filename, "utf8").split("*/")[0]);
    return;
  }
  const report = startReport("bench-release", "Release benchmark: from a push to the live site", "bench:release");
  const runs = Number(values.runs);
  const site = await startReleaseSite();
  const shows = async (text: string) => (await site.page("/home")).text.includes(text);
  const seconds = (since: number) => Number(((Date.now() - since) / 1000).toFixed(1));
  const load = () => os.loadavg()[0]!.toFixed(1);
  const costs: Cost[] = [];
  const store = path.join(site.root, "shared", "packages");
  const live = () => fs.realpathSync(path.join(site.root, "current"));
  /** What the release just made cost: its steps' seconds, and the disk it added (packages apart). */
  const measured = (what: string, took: number, rootBefore: number, storeBefore: number): Cost => {
    const release = live();
    const steps = stepSeconds(site.root);
    const packagesKb =
      diskKb(path.join(release, "node_modules"), path.join(release, "admin", "node_modules")) +
      Math.max(0, diskKb(store) - storeBefore);
    const cost = {
      what,
      seconds: took,
      dependencies: steps.dependencies,
      diskKb: diskKb(site.root) - rootBefore,
      packagesKb,
    };
    console.log(
      `${what}: ${took} s (load ${load()}); steps ${JSON.stringify(steps)}; disk +${mb(cost.diskKb)}, of which packages ${mb(packagesKb)}`,
    );
    return cost;
  };
  try {
    let rootBefore = diskKb(site.root);
    let storeBefore = diskKb(store);
    let started = Date.now();
    const first = await site.release();
    if (first.code !== 0) throw new Error(`the first release failed:\n${first.output.slice(-3000)}`);
    costs.push(measured("first release from nothing", seconds(started), rootBefore, storeBefore));

    let previous = HEADING;
    const pushToLive: number[] = [];
    for (let i = 1; i <= runs; i += 1) {
      const text = `${HEADING}, change ${i}`;
      rootBefore = diskKb(site.root);
      storeBefore = diskKb(store);
      started = Date.now();
      const commit = site.push("data/home/home.yaml", (t) => t.replace(`"${previous}"`, `"${text}"`), `Home: ${i}`);
      if ((await site.hookPush(commit)) !== 202) throw new Error("the push hook did not take the push");
      const result = await site.release(["--wanted"]);
      if (result.code !== 0 || !(await shows(text))) throw new Error(`release ${i} failed:\n${result.output.slice(-3000)}`);
      pushToLive.push(seconds(started));
      costs.push(measured(`one-text change ${i}, push to live`, pushToLive.at(-1)!, rootBefore, storeBefore));
      previous = text;
    }
    const sorted = [...pushToLive].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`push to live, median of ${runs}: ${median} s`);

    started = Date.now();
    const back = await site.release(["--rollback"]);
    if (back.code !== 0) throw new Error(`the rollback failed:\n${back.output.slice(-3000)}`);
    const rollback = seconds(started);
    console.log(`rollback: ${rollback} s (load ${load()})`);

    const rootMb = mb(diskKb(site.root));
    const table: ReportTable = {
      title: "Each release",
      columns: ["release", "seconds", "of which packages (s)", "disk added", "of which packages"],
      right: [1, 2, 3, 4],
      rows: costs.map((cost) => [
        cost.what,
        String(cost.seconds),
        cost.dependencies?.toFixed(1) ?? "?",
        mb(cost.diskKb),
        mb(cost.packagesKb),
      ]),
      notes: [
        `Push to live, median of ${runs}: ${median} s. Rollback to the release live before: ${rollback} s. ` +
          `The release root after ${costs.length} releases: ${rootMb}.`,
      ],
    };
    console.log(`\n${markdownTable(table).join("\n")}\n\n${table.notes![0]}`);
    if (values["save-report"]) {
      const summary = [
        "The release test's place (a bare repository for the git host, nginx on loopback, the site's service " +
          "with its push hook); the release runs as its own unprivileged user, as on a server.",
      ];
      const data = { costs, pushToLive, rollback };
      console.log(`report: ${writeReport(report.finish({ summary, tables: [table], data }))}`);
    }
  } finally {
    await site.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
