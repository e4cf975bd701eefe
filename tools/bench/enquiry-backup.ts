/**
 * The backup part of `npm run bench:enquiries`: on a store of n enquiries (SQLite, then PostgreSQL),
 * the time of `enquiries backup` (VACUUM INTO or pg_dump, into a file) and of `enquiries restore` of
 * that file into an empty store with the erasure log of one erasure made after it (3 enquiries of
 * one address), both through the operator's commands, in this process. Filled as ./enquiry-removal
 * fills its store (JSON lines the store imports when it opens). Not timed: what root adds on a
 * server (encrypting the stream with age, writing it to the backup folder's disk).
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openBenchStore, runEnquiriesCli } from "../../src/site-service";
import { ERASED, writeLines } from "./enquiry-removal";
import type { ReportTable } from "./report";

export interface BackupTiming {
  engine: string;
  enquiries: number;
  backupMs: number;
  bytes: number;
  restoreMs: number;
  /** The restore's own lines (counts, the replay), as it printed them. */
  said: string[];
}

async function cli(args: string[], env: Record<string, string>): Promise<string[]> {
  const lines: string[] = [];
  const code = await runEnquiriesCli(args, env, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  if (code !== 0) throw new Error(`enquiries ${args[0]}: exit code ${code}\n${lines.join("\n")}`);
  return lines;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** env: the store backed up; fresh: the empty one it is restored into (the same engine). */
export async function measureBackup(
  engine: string,
  env: Record<string, string>,
  fresh: Record<string, string>,
  n: number,
): Promise<BackupTiming> {
  const key = crypto.randomBytes(32).toString("base64");
  const settings = { ...env, ENQUIRY_ERASURE_KEY: key };
  writeLines(env.ENQUIRY_DATA_DIR!, n, Date.now());
  const { store, report } = await openBenchStore(settings);
  await store.close();
  if (report.imported.enquiries !== n) throw new Error(`${engine}: imported ${report.imported.enquiries} of ${n}`);

  const folder = fs.mkdtempSync(path.join(path.dirname(env.ENQUIRY_DATA_DIR!), "backups-"));
  const file = path.join(folder, "enquiries.backup");
  const backupMs = await timed(() => cli(["backup", "--out", file], settings));
  await cli(["erase", "--email", ERASED], settings);
  const log = path.join(folder, "erasures.log");
  fs.writeFileSync(log, `${(await cli(["erasure-log"], settings)).join("\n")}\n`);

  let said: string[] = [];
  const restoreMs = await timed(async () => {
    said = await cli(["restore", file, "--erasures", log], { ...fresh, ENQUIRY_ERASURE_KEY: key });
  });
  return { engine, enquiries: n, backupMs, bytes: fs.statSync(file).size, restoreMs, said };
}

/** The backup and restore table, the restore's own lines under it (none when that part was left out). */
export function backupTables(timings: BackupTiming[]): ReportTable[] {
  if (timings.length === 0) return [];
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return [
    {
      title: `Backup and restore of a store of ${timings[0]!.enquiries.toLocaleString("en")} enquiries`,
      columns: ["engine", "backup (into a file)", "its size", "restore (into an empty store, 1 erasure replayed)"],
      right: [1, 2, 3],
      rows: timings.map((t) => [
        t.engine,
        seconds(t.backupMs),
        `${(t.bytes / 1024 / 1024).toFixed(1)} MiB`,
        seconds(t.restoreMs),
      ]),
      notes: timings.map((t) => `- ${t.engine}: ${t.said.slice(0, 2).join("; ")}`),
    },
  ];
}
