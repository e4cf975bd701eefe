/**
 * The enquiry store's benchmark (`npm run bench:enquiries`), its report in docs/benchmarks/bench-enquiries.md:
 *
 * 1. 500 enquiries at once to one standalone service (src/site-service/bin/site-service.ts) on
 *    SQLite, then on PostgreSQL, then to two services sharing PostgreSQL (every other one to each):
 *    the time each waited for its answer (p50, p99), the whole burst, and whether every 201 is
 *    stored once (the store read back through the receiver's public entry).
 * 2. The store's size per 10,000 enquiries on each engine, with the e-mail on (each enquiry also has
 *    its outbox row, its attempt and its delivery record): sent through the service to a local SMTP
 *    sink, then the SQLite file (after the service stopped) or the database's size less that of an
 *    empty store.
 *
 * 3. Erasure and retention (./enquiry-removal): on a store of 100,000 enquiries, one `erase` and one
 * purge of the oldest tenth, SQLite (secure_delete on, then off) and PostgreSQL; then enquiries per second stored
 * through the
 *    store with SQLite's secure_delete on and off.
 * 4. Backups (./enquiry-backup): on a store of 100,000 enquiries, `enquiries backup` into a file and
 *    `enquiries restore` of it into an empty store with one erasure to replay, SQLite and PostgreSQL
 *    (pg_dump and psql of the tests' server).
 *
 * PostgreSQL is the tests' own server (__tests__/support/postgres: PostgreSQL 15, run as the postgres
 * user on a temporary folder and a free port, fsync on). Everything on 127.0.0.1. Timings depend on the
 * machine and its load: this is not a test, and `npm test` does not run it.
 *
 * Usage: npm run bench:enquiries -- [--concurrent 500] [--size-count 10000] [--enquiries 100000] [--stores 2000]
 *   [--backups 100000] [--save-report]
 * (a count of 0 leaves that part out; a quick run: -- --concurrent 0 --size-count 0 --enquiries 2000 --backups 2000)
 * --save-report also writes docs/benchmarks/bench-enquiries.md and bench-enquiries.json: the command, the
 * machine, its load at the start and the end, and the tables (./report.ts). --help prints this.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { SMTPServer } from "smtp-server";
import { readStoredLines } from "../../src/site-service";
import { startPostgres, type TestPostgres } from "../../__tests__/support/postgres";
import { freePort } from "../../__tests__/support/serve";
import { parseBenchOptions } from "./enquiry-options";
import { backupTables, measureBackup, type BackupTiming } from "./enquiry-backup";
import { measureRemoval, measureStoring, removalTables, type Removal, type StoringRate } from "./enquiry-removal";
import { markdownTable, startReport, writeReport, type ReportTable } from "./report";

const root = path.resolve(__dirname, "../..");
const MESSAGE = "We are planning a phase II study in oncology across four sites and would like a quote. ".repeat(4);

interface Service {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startService(env: NodeJS.ProcessEnv): Promise<Service> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "src/site-service/bin/site-service.ts"], {
    cwd: root,
    env: {
      ...process.env,
      SMTP_URL: "",
      ENQUIRY_TO: "",
      ENQUIRY_RATE_LIMIT: "1000000",
      ...env,
      ENQUIRY_HOST: "127.0.0.1",
      ENQUIRY_PORT: String(port),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error("the enquiry service exited at start");
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 300) throw new Error("the enquiry service did not start within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url,
    child,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

const enquiry = (run: string, n: number) => ({
  name: `Bench ${run}`,
  phone: "+91 44 2345 6789",
  email: `bench${n}@example.in`,
  message: `${MESSAGE}(${run} ${n})`,
});

async function post(url: string, body: object): Promise<{ status: number; id?: string; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/api/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  }).catch(() => undefined);
  const answer = res ? ((await res.json().catch(() => ({}))) as { id?: string }) : {};
  return { status: res?.status ?? 0, id: answer.id, ms: performance.now() - started };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;

interface Burst {
  scenario: string;
  count: number;
  accepted: number;
  p50: number;
  p99: number;
  max: number;
  seconds: number;
  storedOnce: boolean;
}

/** n enquiries at once, each to the next of urls in turn. */
async function burst(scenario: string, urls: string[], n: number, env: NodeJS.ProcessEnv): Promise<Burst> {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) => post(urls[i % urls.length]!, enquiry(scenario, i))),
  );
  const seconds = (performance.now() - started) / 1000;
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const ids = answers.filter((a) => a.status === 201).map((a) => a.id);
  const stored = (await readStoredLines(env)) as Array<{ id: string; message: string }>;
  const storedOnce =
    stored.length === ids.length &&
    new Set(stored.map((s) => s.id)).size === stored.length &&
    new Set(stored.map((s) => s.message)).size === stored.length &&
    ids.every((id) => stored.some((s) => s.id === id));
  return {
    scenario,
    count: n,
    accepted: ids.length,
    p50: Math.round(quantile(ms, 0.5)),
    p99: Math.round(quantile(ms, 0.99)),
    max: Math.round(ms.at(-1)!),
    seconds: Math.round(seconds * 10) / 10,
    storedOnce,
  };
}

/** An SMTP server on loopback that takes every message and counts it. */
async function smtpSink(): Promise<{ port: number; count(): number; stop(): Promise<void> }> {
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => undefined);
      stream.on("end", () => {
        count += 1;
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  return { port, count: () => count, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Sends n enquiries, 50 at a time, through one service with mail on, waits for every e-mail. */
async function fill(env: NodeJS.ProcessEnv, n: number, smtp: { port: number; count(): number }): Promise<void> {
  const before = smtp.count();
  const service = await startService({ ...env, SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ENQUIRY_TO: "desk@cyrus.example" });
  let next = 0;
  const client = async () => {
    while (next < n) {
      const i = next++;
      const answer = await post(service.url, enquiry(`size ${before}`, i));
      if (answer.status !== 201) throw new Error(`enquiry ${i}: HTTP ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: 50 }, client));
  const deadline = Date.now() + 10 * 60_000;
  while (smtp.count() - before < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
  await service.stop();
}

async function databaseBytes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ size: string }>("SELECT pg_database_size(current_database()) AS size");
    return Number(rows[0]!.size);
  } finally {
    await client.end();
  }
}

function sqliteBytes(dir: string): number {
  return ["enquiries.sqlite", "enquiries.sqlite-wal"]
    .map((f) => path.join(dir, f))
    .filter((f) => fs.existsSync(f))
    .reduce((sum, f) => sum + fs.statSync(f).size, 0);
}

const print = (tables: ReportTable[]) => {
  for (const table of tables) {
    console.log(`\n${table.title}:\n${markdownTable(table).join("\n")}`);
    for (const note of table.notes ?? []) console.log(`  ${note}`);
  }
  return tables;
};

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes("--help")) {
    console.log(fs.readFileSync(__filename, "utf8").split("*/")[0]);
    return;
  }
  const report = startReport("bench-enquiries", "Enquiry store benchmark: bursts, size, erasure, backups", "bench:enquiries");
  const saveReport = args.includes("--save-report");
  const counts = parseBenchOptions(args.filter((a) => a !== "--save-report"));
  const { concurrent, sizeCount, enquiries, stores, backups } = counts;
  const tables: ReportTable[] = [];
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-bench-"));
  const dir = (name: string) => path.join(base, name);
  let postgres: TestPostgres | undefined;
  const smtp = await smtpSink();
  console.log(`load average at the start: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} (${os.cpus().length} cores)`);
  try {
    postgres = await startPostgres();
    if (concurrent > 0) tables.push(...print([await bursts(postgres, dir, concurrent)]));
    if (sizeCount > 0) tables.push(...print([await sizes(postgres, dir, sizeCount, smtp)]));
    const removals: Removal[] = [];
    if (enquiries > 0) {
      removals.push(await measureRemoval("SQLite", { ENQUIRY_DATA_DIR: dir("removal-sqlite") }, enquiries));
      const off = { ENQUIRY_DATA_DIR: dir("removal-sqlite-off") };
      removals.push(await measureRemoval("SQLite, secure_delete OFF", off, enquiries, false));
      const pgEnv = { ENQUIRY_DATA_DIR: dir("removal-pg"), DATABASE_URL: await postgres.createDatabase() };
      removals.push(await measureRemoval("PostgreSQL", pgEnv, enquiries));
    }
    const rates: StoringRate[] = [];
    if (stores > 0) {
      rates.push(await measureStoring(dir("store-on"), stores, true));
      rates.push(await measureStoring(dir("store-off"), stores, false));
    }
    tables.push(...print(removalTables(removals, rates)));
    const timings: BackupTiming[] = [];
    if (backups > 0) {
      const sqlite = (name: string) => ({ ENQUIRY_DATA_DIR: dir(name) });
      timings.push(await measureBackup("SQLite", sqlite("backup-sqlite"), sqlite("restore-sqlite"), backups));
      const pg = async (name: string) => ({
        ENQUIRY_DATA_DIR: dir(name),
        DATABASE_URL: await postgres!.createDatabase(),
        ENQUIRY_PG_BIN: postgres!.binaries.bin,
      });
      timings.push(await measureBackup("PostgreSQL", await pg("backup-pg"), await pg("restore-pg"), backups));
    }
    tables.push(...print(backupTables(timings)));
    console.log(`\nload average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")} (${os.cpus().length} cores)`);
    if (saveReport) {
      const summary = [
        `PostgreSQL ${postgres.binaries.version}, the tests' own server (fsync on); everything on 127.0.0.1. ` +
          "A count of 0 in the command leaves that part out.",
      ];
      const data = { counts, removals, rates, timings };
      console.log(`report: ${writeReport(report.finish({ summary, tables, data }))}`);
    }
  } finally {
    await smtp.stop();
    await postgres?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

async function bursts(postgres: TestPostgres, dir: (name: string) => string, concurrent: number): Promise<ReportTable> {
  const bursts: Burst[] = [];

  const sqlite = { ENQUIRY_DATA_DIR: dir("sqlite") };
  let service = await startService(sqlite);
  bursts.push(await burst("SQLite, one service", [service.url], concurrent, sqlite));
  await service.stop();

  const one = { ENQUIRY_DATA_DIR: dir("pg-one"), DATABASE_URL: await postgres.createDatabase() };
  service = await startService(one);
  bursts.push(await burst("PostgreSQL, one service", [service.url], concurrent, one));
  await service.stop();

  const two = { ENQUIRY_DATA_DIR: dir("pg-two"), DATABASE_URL: await postgres.createDatabase() };
  const pair = [await startService(two), await startService({ ...two, ENQUIRY_DATA_DIR: dir("pg-two-b") })];
  bursts.push(await burst("PostgreSQL, two services", pair.map((s) => s.url), concurrent, two));
  await Promise.all(pair.map((s) => s.stop()));

  return {
    title: `${concurrent} enquiries at once (time to the answer, ms)`,
    columns: ["scenario", "accepted", "p50", "p99", "max", "burst (s)", "stored once"],
    right: [2, 3, 4, 5],
    rows: bursts.map((b) => [
      b.scenario,
      `${b.accepted} of ${b.count}`,
      String(b.p50),
      String(b.p99),
      String(b.max),
      String(b.seconds),
      b.storedOnce ? "yes" : "NO",
    ]),
  };
}

/** Sizes: an empty store's first, then the same store after sizeCount enquiries, each e-mailed. */
async function sizes(
  postgres: TestPostgres,
  dir: (name: string) => string,
  sizeCount: number,
  smtp: { port: number; count(): number },
): Promise<ReportTable> {
  const sizeSqlite = { ENQUIRY_DATA_DIR: dir("size-sqlite") };
  await fill(sizeSqlite, 1, smtp);
  const sqliteEmpty = sqliteBytes(sizeSqlite.ENQUIRY_DATA_DIR);
  await fill(sizeSqlite, sizeCount, smtp);
  const sqliteFull = sqliteBytes(sizeSqlite.ENQUIRY_DATA_DIR);

  const sizePg = { ENQUIRY_DATA_DIR: dir("size-pg"), DATABASE_URL: await postgres.createDatabase() };
  await fill(sizePg, 1, smtp);
  const pgEmpty = await databaseBytes(sizePg.DATABASE_URL);
  await fill(sizePg, sizeCount, smtp);
  const pgFull = await databaseBytes(sizePg.DATABASE_URL);

  const per10k = (bytes: number) => ((bytes / sizeCount) * 10_000) / 2 ** 20;
  const row = (engine: string, bytes: number) => [engine, `${(bytes / 2 ** 20).toFixed(1)} MiB`, `${per10k(bytes).toFixed(1)} MiB`];
  return {
    title: `Store size, ${sizeCount} enquiries (message of ${MESSAGE.length + 12} characters), each e-mailed`,
    columns: ["engine", "growth", "per 10,000 enquiries"],
    right: [1, 2],
    rows: [row("SQLite", sqliteFull - sqliteEmpty), row("PostgreSQL", pgFull - pgEmpty)],
  };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
