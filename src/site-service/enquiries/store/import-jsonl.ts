/**
 * The JSON-lines files of earlier versions (enquiries.jsonl, deliveries.jsonl, reviews.jsonl in
 * ENQUIRY_DATA_DIR), moved into the database once at start. Idempotent (rows that are there already
 * are left as they are), so a start that stops half-way simply imports again; a file is removed only
 * once every line read from it is checked present, so that erasure and retention reach every copy.
 * Lines that cannot be read (a write torn by a crash) are kept apart, not lost, each import's in a
 * file of its own (./set-aside), which erasure and retention reach as well.
 */
import fs from "node:fs";
import path from "node:path";
import type { Engine, Sql } from "./engine";
import { readJsonLines, type JsonLine } from "./read-json-lines";
import { enquiryRow, INSERT_ENQUIRY } from "./enquiry-row";
import { readStoredLine, type StoredEnquiry } from "./stored-record";
import { writeSetAside } from "./set-aside";
import type { DeliveryEvent, ReviewEvent, StoreReport } from "./store";

const FILES = ["enquiries.jsonl", "deliveries.jsonl", "reviews.jsonl"] as const;

export async function importJsonLines(
  db: Engine,
  dataDir: string,
  now: () => number,
): Promise<StoreReport["imported"]> {
  const found = FILES.map((name) => path.join(dataDir, name)).filter((file) => fs.existsSync(file));
  const report = { enquiries: 0, deliveries: 0, reviews: 0, files: found, unreadableLines: 0 };
  if (found.length === 0) return report;
  const [enquiries, deliveries, reviews] = await Promise.all(
    FILES.map((name) => readJsonLines(path.join(dataDir, name))),
  );
  // Per file: what it holds that the store can take, and the lines set aside.
  const stored = sortOut(enquiries!, readStoredLine);
  const events = sortOut(deliveries!, (v) => (isDeliveryEvent(v) ? v : undefined));
  const cleared = sortOut(reviews!, (v) => (isReviewEvent(v) ? v : undefined));
  const unreadable = [stored.unreadable, events.unreadable, cleared.unreadable];

  await db.transaction(async (sql) => {
    for (const enquiry of stored.records) report.enquiries += await sql.run(INSERT_ENQUIRY, enquiryRow(enquiry));
    for (const e of events.records) {
      const detail = e.delivery === "delivered" ? (e.messageId ?? null) : (e.error ?? null);
      report.deliveries += await sql.run(
        `INSERT INTO deliveries (enquiry_id, at, outcome, detail) SELECT $1, $2, $3, $4
         WHERE EXISTS (SELECT 1 FROM enquiries WHERE id = $1) ON CONFLICT DO NOTHING`,
        [e.id, e.at, e.delivery, detail],
      );
    }
    for (const r of cleared.records) {
      report.reviews += await sql.run(
        `INSERT INTO reviews (enquiry_id, at, review) SELECT $1, $2, $3
         WHERE EXISTS (SELECT 1 FROM enquiries WHERE id = $1) ON CONFLICT DO NOTHING`,
        [r.id, r.at, r.review],
      );
    }
    await checkPresent(sql, stored.records);
  });

  // Only after the commit: until then the files are the only copy.
  FILES.forEach((name, i) => {
    const file = path.join(dataDir, name);
    if (!fs.existsSync(file)) return;
    const lines = unreadable[i]!;
    if (lines.length > 0) writeSetAside(dataDir, name, lines, now());
    report.unreadableLines += lines.length;
    fs.rmSync(file);
  });
  return report;
}

function sortOut<T>(read: JsonLine[], take: (value: unknown) => T | undefined): { records: T[]; unreadable: string[] } {
  const records: T[] = [];
  const unreadable: string[] = [];
  for (const { line, value } of read) {
    const record = value === undefined ? undefined : take(value);
    if (record === undefined) unreadable.push(line);
    else records.push(record);
  }
  return { records, unreadable };
}

/** Every enquiry read from the file, in the store under its id, with the same fields. */
async function checkPresent(sql: Sql, stored: StoredEnquiry[]): Promise<void> {
  for (const enquiry of stored) {
    const [row] = await sql.all<{ duplicate_key: string }>("SELECT duplicate_key FROM enquiries WHERE id = $1", [
      enquiry.id,
    ]);
    if (row?.duplicate_key !== enquiryRow(enquiry)[3]) {
      throw new Error(`importing enquiries.jsonl: enquiry ${enquiry.id} is in the store with other fields`);
    }
  }
}

/** A line with the string id and time every delivery and review line has. */
function eventLine(value: unknown): Record<string, unknown> | undefined {
  const v = value as Record<string, unknown> | null;
  return typeof v === "object" && v !== null && typeof v.id === "string" && typeof v.at === "string" ? v : undefined;
}

function isDeliveryEvent(value: unknown): value is DeliveryEvent {
  const delivery = eventLine(value)?.delivery;
  return delivery === "delivered" || delivery === "failed";
}

function isReviewEvent(value: unknown): value is ReviewEvent {
  return eventLine(value)?.review === "not-spam";
}
