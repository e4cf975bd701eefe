/**
 * The erasure and retention part of `npm run bench:enquiries`: on a store of n enquiries (SQLite,
 * then PostgreSQL), the time of one `erase` of an address with 3 enquiries and of one purge removing
 * the oldest tenth, each through the store's own method (the real path: the deletion, its cascade to
 * the delivery records, the set-aside files, then Engine.scrub, which on SQLite empties the WAL).
 * The same on SQLite with secure_delete off, for what it costs there. Then, on SQLite, enquiries
 * per second stored one after the other through the store's add (with an outbox row, as with mail
 * on) with secure_delete on, as always, and off (openBenchStore turns it off on the store's own
 * connection after it opened, the import done; nothing else can).
 *
 * Filling: the store imports JSON-lines files found in its data folder when it opens, in one
 * transaction (store/import-jsonl), so the benchmark writes enquiries.jsonl and deliveries.jsonl
 * (one delivered e-mail each) and opens the store: n enquiries with no SQL of its own. Those have
 * no outbox row (as the enquiries of the JSON-lines versions); their received times are spread evenly
 * over the last two years.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { openBenchStore, type EnquiryStore, type StoredEnquiry } from "../../src/site-service";
import type { ReportTable } from "./report";

const DAY_MS = 24 * 60 * 60 * 1000;
const SPAN_MS = 730 * DAY_MS;
const MESSAGE = "We are planning a phase II study in oncology across four sites and would like a quote. ".repeat(4);
/** The address erased: 3 enquiries, among the youngest (the purge leaves them). */
export const ERASED = "erase-me@example.in";
const ERASED_COUNT = 3;

export interface Removal {
  engine: string;
  enquiries: number;
  importSeconds: number;
  eraseMs: number;
  erased: number;
  purgeMs: number;
  purged: number;
  incomplete?: string;
}

export interface StoringRate {
  secureDelete: boolean;
  stores: number;
  seconds: number;
  perSecond: number;
}

function enquiry(i: number, receivedAt: string, email: string): StoredEnquiry {
  return {
    id: randomUUID(),
    receivedAt,
    name: `Bench ${i}`,
    phone: "+91 44 2345 6789",
    email,
    message: `${MESSAGE}(${i})`,
    screening: { verdict: "clean", signals: [] },
    delivery: "pending",
  };
}

/** enquiries.jsonl and deliveries.jsonl for n enquiries; the purge's cutoff, which leaves 90% of them. */
export function writeLines(dataDir: string, n: number, now: number): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const start = now - SPAN_MS;
  const at = (i: number) => new Date(start + Math.floor((i * SPAN_MS) / n)).toISOString();
  const enquiries = fs.openSync(path.join(dataDir, "enquiries.jsonl"), "w", 0o600);
  const deliveries = fs.openSync(path.join(dataDir, "deliveries.jsonl"), "w", 0o600);
  for (let i = 0; i < n; i += 1) {
    const e = enquiry(i, at(i), i >= n - ERASED_COUNT ? ERASED : `bench${i}@example.in`);
    const { screening, delivery, ...fields } = e;
    fs.writeSync(enquiries, `${JSON.stringify({ v: 3, ...fields, screening, delivery })}\n`);
    const sent = new Date(Date.parse(e.receivedAt) + 2000).toISOString();
    fs.writeSync(deliveries, `${JSON.stringify({ id: e.id, at: sent, delivery: "delivered", messageId: `<${e.id}@bench>` })}\n`);
  }
  fs.closeSync(enquiries);
  fs.closeSync(deliveries);
  return at(Math.floor(n / 10));
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await fn();
  return { result, ms: performance.now() - started };
}

/** Fills a store of n enquiries, then one erase and one purge through it. */
export async function measureRemoval(
  engine: string,
  env: Record<string, string>,
  n: number,
  secureDelete = true,
): Promise<Removal> {
  const cutoff = writeLines(env.ENQUIRY_DATA_DIR!, n, Date.now());
  const opened = await timed(() => openBenchStore(env, { secureDelete }));
  const { store, report } = opened.result;
  try {
    if (report.imported.enquiries !== n) throw new Error(`${engine}: imported ${report.imported.enquiries} of ${n}`);
    const erase = await timed(() => store.erase(ERASED));
    const purge = await timed(() => store.purgeBefore(cutoff));
    return {
      engine,
      enquiries: n,
      importSeconds: opened.ms / 1000,
      eraseMs: erase.ms,
      erased: erase.result.enquiries,
      purgeMs: purge.ms,
      purged: purge.result.enquiries,
      incomplete: erase.result.incomplete ?? purge.result.incomplete,
    };
  } finally {
    await store.close();
  }
}

/** m enquiries stored one after the other into an empty SQLite store, each with its e-mail's outbox row. */
export async function measureStoring(dataDir: string, m: number, secureDelete: boolean): Promise<StoringRate> {
  const { store } = await openBenchStore({ ENQUIRY_DATA_DIR: dataDir }, { secureDelete });
  try {
    const { ms } = await timed(() => storeEach(store, m));
    return { secureDelete, stores: m, seconds: ms / 1000, perSecond: (m / ms) * 1000 };
  } finally {
    await store.close();
  }
}

async function storeEach(store: EnquiryStore, m: number): Promise<void> {
  const since = new Date(Date.now() - DAY_MS).toISOString();
  for (let i = 0; i < m; i += 1) {
    const e = enquiry(i, new Date().toISOString(), `store${i}@example.in`);
    const added = await store.add(e, { key: `bench-${e.id}`, since, ignoreFailed: false }, [
      { destination: "email", messageId: `<${e.id}@bench>` },
    ]);
    if (added.duplicateOf) throw new Error(`enquiry ${i} taken for a duplicate`);
  }
}

/** The erasure and retention table, and the storing rates' (none when that part was left out). */
export function removalTables(removals: Removal[], rates: StoringRate[]): ReportTable[] {
  const ms = (value: number) => (value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString("en")) + " ms";
  const tables: ReportTable[] = [];
  if (removals.length > 0) {
    tables.push({
      title: `Erasure and retention on a store of ${removals[0]!.enquiries.toLocaleString("en")} enquiries`,
      columns: ["engine", "filled by import", "erase (3 enquiries)", "purge (oldest tenth)", "removed"],
      right: [1, 2, 3],
      rows: removals.map((r) => [
        r.engine,
        `${r.importSeconds.toFixed(1)} s`,
        ms(r.eraseMs),
        ms(r.purgeMs),
        `${r.erased} + ${r.purged.toLocaleString("en")}`,
      ]),
      notes: removals.filter((r) => r.incomplete).map((r) => `- ${r.engine}: ${r.incomplete}`),
    });
  }
  if (rates.length > 0) {
    tables.push({
      title: "Storing, one enquiry after the other (SQLite, empty store, each with an outbox row)",
      columns: ["secure_delete", "stored", "seconds", "enquiries per second"],
      right: [1, 2, 3],
      rows: rates.map((r) => [
        r.secureDelete ? "ON" : "OFF",
        String(r.stores),
        r.seconds.toFixed(1),
        String(Math.round(r.perSecond)),
      ]),
    });
  }
  return tables;
}
