/**
 * The inbox's benchmark (`npm run bench:inbox`), for the figures in docs/performance.md: the server
 * time of the inbox's list and search at 1,000 and 100,000 enquiries, on SQLite and on PostgreSQL.
 *
 * Filling: as ./enquiry-removal, the store imports enquiries.jsonl from its data folder when it
 * opens (one transaction, the migrations' trigger giving each its work row and search text), so n
 * enquiries go in with no SQL of the benchmark's own. Each message has a word in its middle: one
 * every message has ("oncology"), one of every 1,000 ("pharmacokinetic"); received times are spread
 * over two years.
 *
 * Timing: the service (createEnquiryService, as it runs) is not listening; a node:http server of the
 * benchmark's on 127.0.0.1 hands each request to the service's inbox API handler and measures from
 * the request's arrival to the end of its answer: server time, in this process, through the same
 * handler (session check, route, store, JSON), without the client's share. Each figure is the median
 * of --runs calls after 2 warm-up calls. The session is made in the store as a sign-in would
 * (its id's SHA-256), not through a passkey.
 *
 * PostgreSQL is the tests' own server (__tests__/support/postgres). Timings depend on the machine and
 * its load: this is not a test, and neither `npm test` nor CI runs it.
 *
 * Usage: npm run bench:inbox -- [--sizes 1000,100000] [--runs 21] [--engines sqlite,postgres] [--save-report]
 * --save-report also writes docs/benchmarks/bench-inbox.md and bench-inbox.json: the command, the machine,
 * its load at the start and the end, and the table (./report.ts). --help prints this.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createEnquiryService, openBenchStore, type JsonLog } from "../../src/site-service";
import { startPostgres, type TestPostgres } from "../../__tests__/support/postgres";
import { markdownTable, startReport, writeReport, type ReportTable } from "./report";

const DAY_MS = 24 * 60 * 60 * 1000;
const SPAN_MS = 730 * DAY_MS;
const RARE_EVERY = 1_000;
const BEFORE = "We are planning a phase II study across four sites in India and would like a quote for";
const AFTER = "monitoring, data management and the regulatory submissions; our timelines are in the brief.";
const USAGE = "npm run bench:inbox -- [--sizes 1000,100000] [--runs 21] [--engines sqlite,postgres] [--save-report]";

interface Row {
  engine: string;
  enquiries: number;
  importSeconds: number;
  /** Median server time (ms) of each request, by its label. */
  ms: Map<string, number>;
  /** How many enquiries each request's answer listed (the first page's). */
  found: Map<string, number>;
}

function options(): { sizes: number[]; runs: number; engines: string[]; saveReport: boolean } {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      sizes: { type: "string" },
      runs: { type: "string" },
      engines: { type: "string" },
      "save-report": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(fs.readFileSync(__filename, "utf8").split("*/")[0]);
    process.exit(0);
  }
  const sizes = (values.sizes ?? "1000,100000").split(",").map((s) => Number(s.replace(/_/g, "")));
  const runs = Number(values.runs ?? 21);
  if (sizes.some((n) => !Number.isInteger(n) || n < RARE_EVERY) || !Number.isInteger(runs) || runs < 1) {
    throw new Error(`sizes of at least ${RARE_EVERY}, and a whole number of runs\n${USAGE}`);
  }
  const engines = (values.engines ?? "sqlite,postgres").split(",");
  if (engines.some((e) => e !== "sqlite" && e !== "postgres")) throw new Error(`engines: sqlite, postgres\n${USAGE}`);
  return { sizes, runs, engines, saveReport: values["save-report"] };
}

const at = (i: number, n: number, now: number) => new Date(now - SPAN_MS + Math.floor((i * SPAN_MS) / n)).toISOString();

/** enquiries.jsonl of n enquiries, oldest first. */
function writeLines(dataDir: string, n: number, now: number): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = fs.openSync(path.join(dataDir, "enquiries.jsonl"), "w", 0o600);
  let chunk = "";
  for (let i = 0; i < n; i += 1) {
    const word = i % RARE_EVERY === RARE_EVERY / 2 ? "pharmacokinetic oncology" : "oncology";
    chunk += `${JSON.stringify({
      v: 3,
      id: crypto.randomUUID(),
      receivedAt: at(i, n, now),
      name: `Bench Person ${i}`,
      phone: "+91 44 2345 6789",
      email: `bench${i}@sponsor${i % 97}.example`,
      message: `${BEFORE} ${word} (${i}) ${AFTER}`,
      screening: { verdict: i % 50 === 0 ? "suspect" : "clean", signals: i % 50 === 0 ? ["url-in-name"] : [] },
      delivery: "pending",
    })}\n`;
    if (chunk.length > 1 << 20) {
      fs.writeSync(file, chunk);
      chunk = "";
    }
  }
  fs.writeSync(file, chunk);
  fs.closeSync(file);
}

/** The requests timed, by label: a path under /inbox/api/ (n: the store's size, now: the fill's clock). */
function requests(n: number, now: number): Array<[string, string]> {
  // A key in the middle of the list, as a `next` would be: after the enquiry received at that time.
  const middle = Buffer.from(JSON.stringify([at(Math.floor(n / 2), n, now), 2_000_000_000])).toString("base64url");
  return [
    ["list, first page (50)", "/inbox/api/enquiries"],
    ["list, a page in the middle (keyset)", `/inbox/api/enquiries?after=${middle}`],
    ["counts", "/inbox/api/counts"],
    ["list, flagged", "/inbox/api/enquiries?flagged=true"],
    ["search, a word in every message", "/inbox/api/enquiries?q=oncology"],
    ["search, a word in 1 of 1,000 messages", "/inbox/api/enquiries?q=pharmacokinetic"],
    ["search, an e-mail (1 enquiry)", `/inbox/api/enquiries?q=bench${Math.floor(n / 3)}%40sponsor`],
    ["search, a word in none", "/inbox/api/enquiries?q=zebrafish"],
  ];
}

async function measure(engine: string, env: Record<string, string>, n: number, runs: number): Promise<Row> {
  const now = Date.now();
  writeLines(env.ENQUIRY_DATA_DIR!, n, now);
  const started = performance.now();
  const opened = await openBenchStore(env);
  const importSeconds = (performance.now() - started) / 1000;
  const imported = opened.report.imported.enquiries;
  await opened.store.close();
  if (imported !== n) throw new Error(`${engine}: imported ${imported} of ${n}`);

  const service = createEnquiryService({
    env: { ...env, SITE_URL: "https://cyrus.example", SMTP_URL: "", ENQUIRY_TO: "" },
    log: quietLog(),
  });
  const { store } = service.receiver;
  const person = await store.inbox.invite("bench@cyrus.example", "Bench", "unused", new Date().toISOString(), new Date().toISOString());
  const sessionId = crypto.randomBytes(32).toString("base64url");
  await store.inbox.startSession(crypto.createHash("sha256").update(sessionId).digest("hex"), person.id, new Date().toISOString());

  let last = 0;
  const server = http.createServer((req, res) => {
    const start = performance.now();
    res.on("finish", () => (last = performance.now() - start));
    void service.inbox.handle(req, res, (req.url ?? "/").split("?")[0]!);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const row: Row = { engine, enquiries: n, importSeconds, ms: new Map(), found: new Map() };
  try {
    for (const [label, url] of requests(n, now)) {
      const times: number[] = [];
      for (let i = 0; i < runs + 2; i += 1) {
        const res = await fetch(`http://127.0.0.1:${port}${url}`, {
          headers: { cookie: `__Host-inbox-session=${sessionId}` },
          signal: AbortSignal.timeout(120_000),
        });
        const body = (await res.json()) as { enquiries?: unknown[] };
        if (res.status !== 200) throw new Error(`${engine} ${url}: HTTP ${res.status} ${JSON.stringify(body)}`);
        if (i === 0) row.found.set(label, body.enquiries?.length ?? -1);
        if (i >= 2) times.push(last);
      }
      times.sort((a, b) => a - b);
      row.ms.set(label, times[Math.floor(times.length / 2)]!);
    }
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await service.shutdown("bench");
    await store.close().catch(() => undefined);
  }
  return row;
}

/** Errors only (on stderr): the service's lines would bury the figures. */
function quietLog(): JsonLog {
  const log = ((level: string, msg: string, fields?: object) => {
    if (level === "error") console.error(msg, fields ?? "");
  }) as JsonLog;
  log.receiverLogger = { info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => console.error(...args) };
  return log;
}

function table(rows: Row[], runs: number): ReportTable {
  const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString("en"));
  const labels = [...rows[0]!.ms.keys()];
  const heads = rows.map((r) => `${r.engine}, ${r.enquiries.toLocaleString("en")}`);
  return {
    title: `The inbox's API, server time in ms (median of ${runs} in-process calls through its handler)`,
    columns: ["request", ...heads],
    right: heads.map((_, i) => i + 1),
    rows: [
      ...labels.map((label) => [
        label,
        ...rows.map((r) => {
          const found = r.found.get(label);
          return `${ms(r.ms.get(label)!)}${found !== undefined && found >= 0 && found < 50 ? ` (${found} found)` : ""}`;
        }),
      ]),
      ["(filled by import, s)", ...rows.map((r) => r.importSeconds.toFixed(1))],
    ],
    notes: [
      "Server time: from the request's arrival at the inbox's API handler to the end of its answer (session check, " +
        "route, store, JSON), without the client's share. \"found\": enquiries on the first page, where fewer than 50.",
    ],
  };
}

async function main(): Promise<void> {
  const { sizes, runs, engines, saveReport } = options();
  const report = startReport("bench-inbox", "Inbox benchmark: list and search by store size and engine", "bench:inbox");
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "inbox-bench-"));
  let postgres: TestPostgres | undefined;
  const load = () => `${os.loadavg().map((l) => l.toFixed(1)).join(" ")} (${os.cpus().length} cores)`;
  console.log(`load average at the start: ${load()}`);
  try {
    postgres = await startPostgres();
    const pgVersion = `PostgreSQL ${postgres.binaries.version} (${postgres.binaries.kind})`;
    console.log(pgVersion);
    const rows: Row[] = [];
    for (const n of sizes) {
      if (engines.includes("sqlite"))
        rows.push(await measure("SQLite", { ENQUIRY_DATA_DIR: path.join(base, `sqlite-${n}`) }, n, runs));
      if (!engines.includes("postgres")) continue;
      const pgEnv = { ENQUIRY_DATA_DIR: path.join(base, `pg-${n}`), DATABASE_URL: await postgres.createDatabase() };
      rows.push(await measure("PostgreSQL", pgEnv, n, runs));
    }
    const result = table(rows, runs);
    console.log(`\n${result.title}:\n${markdownTable(result).join("\n")}`);
    console.log(`\nload average at the end: ${load()}`);
    if (saveReport) {
      const summary = [
        `The store filled by its own import (messages of about 190 characters; "oncology" in every one, ` +
          `"pharmacokinetic" in 1 of 1,000; received over two years), then each request timed; ${pgVersion}, fsync on.`,
      ];
      const data = rows.map((r) => ({ ...r, ms: Object.fromEntries(r.ms), found: Object.fromEntries(r.found) }));
      console.log(`report: ${writeReport(report.finish({ summary, tables: [result], data }))}`);
    }
  } finally {
    await postgres?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
