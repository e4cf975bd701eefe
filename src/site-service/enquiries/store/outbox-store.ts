/** The outbox's statements: rows written with their enquiry, claimed when due, an attempt recorded. */
import { isoTime, jsonValue, type Engine, type Sql } from "./engine";
import { readStoredLine, type StoredEnquiry } from "./stored-record";

/** A destination's row, written with the enquiry. */
export interface OutboxEntry {
  destination: string;
  /** The same on every attempt (a webhook's webhook-id). */
  messageId: string;
}

export interface ClaimedDelivery extends OutboxEntry {
  seq: number;
  enquiry: StoredEnquiry;
  /** Attempts made before this one. */
  attempts: number;
}

/**
 * One attempt's outcome. With nextAt the row stays due until then (a failure to retry, or a stopped
 * destination's row waiting for its setting to change); a failure without it has failed for good.
 */
export interface Attempt {
  at: string;
  outcome: "done" | "failed" | "stopped";
  detail?: string;
  nextAt?: string;
}

export interface OutboxState {
  enquiryId: string;
  destination: string;
  state: "due" | "done" | "failed" | "stopped";
  attempts: number;
  lastError?: string;
}

/** Resolves with the rows added: one already there for that enquiry and destination is left as it is. */
export async function insertOutbox(sql: Sql, enquiryId: string, entries: OutboxEntry[], at: string): Promise<number> {
  let added = 0;
  for (const entry of entries) {
    added += await sql.run(
      `INSERT INTO outbox (enquiry_id, destination, message_id, state, next_at) VALUES ($1, $2, $3, 'due', $4)
       ON CONFLICT (enquiry_id, destination) DO NOTHING`,
      [enquiryId, entry.destination, entry.messageId, at],
    );
  }
  return added;
}

/**
 * `retry`: a destination's rows waiting for a later attempt, or failed for good, are due now, unless
 * a sender holds them (its lease): they are then claimed as any due row, so two `retry` at once, or
 * `retry` beside the running services, still send each once. Resolves with the rows made due.
 */
export function dueNow(db: Engine, destination: string, now: string): Promise<number> {
  return db.run(
    `UPDATE outbox SET state = 'due', next_at = $2
     WHERE destination = $1 AND (state = 'failed' OR state = 'due' AND next_at > $2)
       AND (claimed_until IS NULL OR claimed_until <= $2)`,
    [destination, now],
  );
}

/**
 * Due rows of one destination, leased to this sender until leaseUntil. On PostgreSQL, rows another
 * instance is claiming are skipped rather than waited for (FOR UPDATE SKIP LOCKED); SQLite has one
 * writer at a time anyway.
 */
export async function claimDue(
  db: Engine,
  destination: string,
  now: string,
  leaseUntil: string,
  limit: number,
  enquiryId?: string,
): Promise<ClaimedDelivery[]> {
  const rows = await db.transaction((sql) =>
    sql.all<{ seq: number; enquiry_id: string; message_id: string; attempts: number }>(
      `UPDATE outbox SET claimed_until = $2
       WHERE seq IN (SELECT seq FROM outbox
         WHERE destination = $3 AND state = 'due' AND next_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
           ${enquiryId === undefined ? "" : "AND enquiry_id = $5"}
         ORDER BY next_at, seq LIMIT $4${db.kind === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""})
       RETURNING seq, enquiry_id, message_id, attempts`,
      enquiryId === undefined
        ? [now, leaseUntil, destination, limit]
        : [now, leaseUntil, destination, limit, enquiryId],
    ),
  );
  const claimed: ClaimedDelivery[] = [];
  for (const row of rows) {
    const [found] = await db.all<{ data: unknown }>("SELECT data FROM enquiries WHERE id = $1", [row.enquiry_id]);
    const enquiry = found && readStoredLine(jsonValue(found.data));
    if (enquiry) {
      claimed.push({ seq: Number(row.seq), enquiry, destination, messageId: row.message_id, attempts: row.attempts });
    }
  }
  return claimed;
}

export function recordAttempt(db: Engine, seq: number, attempt: Attempt): Promise<void> {
  const state = attempt.nextAt ? "due" : attempt.outcome;
  return db.transaction(async (sql) => {
    // An e-mail's attempt is also the enquiry's delivery record, which `list` and the duplicate rule read.
    const [row] = await sql.all<{ enquiry_id: string }>(
      "SELECT enquiry_id FROM outbox WHERE seq = $1 AND destination = 'email'",
      [seq],
    );
    if (row) {
      await sql.run(
        "INSERT INTO deliveries (enquiry_id, at, outcome, detail) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [row.enquiry_id, attempt.at, attempt.outcome === "done" ? "delivered" : "failed", attempt.detail ?? null],
      );
    }
    await sql.run("INSERT INTO outbox_attempts (outbox_seq, at, outcome, detail) VALUES ($1, $2, $3, $4)", [
      seq,
      attempt.at,
      attempt.outcome,
      attempt.detail ?? null,
    ]);
    await sql.run(
      `UPDATE outbox SET state = $2, attempts = attempts + 1, next_at = COALESCE($3, next_at), claimed_until = NULL
       WHERE seq = $1`,
      [seq, state, attempt.nextAt ?? null],
    );
  });
}

export async function outboxStates(db: Engine): Promise<OutboxState[]> {
  const rows = await db.all<{
    seq: number;
    enquiry_id: string;
    destination: string;
    state: OutboxState["state"];
    attempts: number;
  }>("SELECT seq, enquiry_id, destination, state, attempts FROM outbox ORDER BY seq");
  const errors = await db.all<{ outbox_seq: number; detail: string | null; at: unknown }>(
    "SELECT outbox_seq, detail, at FROM outbox_attempts WHERE outcome <> 'done' ORDER BY seq",
  );
  const lastError = new Map(errors.map((e) => [Number(e.outbox_seq), e.detail ?? `failed at ${isoTime(e.at)}`]));
  return rows.map((r) => ({
    enquiryId: r.enquiry_id,
    destination: r.destination,
    state: r.state,
    attempts: Number(r.attempts),
    ...(r.state !== "done" && lastError.has(Number(r.seq)) && { lastError: lastError.get(Number(r.seq)) }),
  }));
}

export async function stopDestination(db: Engine, destination: string, settingHash: string, at: string): Promise<void> {
  await db.run(
    "INSERT INTO stopped_destinations (destination, setting_hash, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    [destination, settingHash, at],
  );
}

export async function isStopped(db: Engine, destination: string, settingHash: string): Promise<boolean> {
  const rows = await db.all(
    "SELECT 1 AS stopped FROM stopped_destinations WHERE destination = $1 AND setting_hash = $2",
    [destination, settingHash],
  );
  return rows.length > 0;
}
