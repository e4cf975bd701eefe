/** The outbox's statements: rows written with their enquiry, claimed when due, an attempt recorded. */
import { randomUUID } from "node:crypto";
import { isoTime, jsonValue, type Engine, type Sql, type SqlValue } from "./engine";
import { readStoredLine, type StoredEnquiry } from "./stored-record";

/** A destination's row, written with the enquiry. */
export interface OutboxEntry {
  destination: string;
  /** The same on every attempt (a webhook's webhook-id). */
  messageId: string;
}

/**
 * A row leased to one sender. The token is the claim's own: what the sender does with the row
 * (read the enquiry, record the attempt) happens only while the row still carries it.
 */
export interface Claim extends OutboxEntry {
  seq: number;
  token: string;
  enquiryId: string;
  /** Attempts made before this one (at the destination's current setting: see stopDestination). */
  attempts: number;
}

export interface ClaimFilter {
  /** Only this enquiry's rows (the Function's own enquiry, in its request). */
  enquiryId?: string;
  /** The destination's setting: none is claimed while it is stopped (410 Gone) for that setting. */
  settingHash?: string;
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
 * A row's channel: its destination, or for a channel of several rows per enquiry (the replies, 012:
 * destination 'reply:<id>') the channel column. What a destination's sender claims, `retry`
 * re-sends and `status` counts.
 */
export const CHANNEL = "coalesce(channel, destination)";

/**
 * `retry`: a destination's rows waiting for a later attempt, or failed for good, are due now, unless
 * a sender holds them (its lease): they are then claimed as any due row, so two `retry` at once, or
 * `retry` beside the running services, still claim each once. Resolves with the rows made due.
 * destination: a channel, or one row's own destination (the inbox's re-send of one reply).
 */
export function dueNow(db: Engine, destination: string, now: string, enquiryId?: string): Promise<number> {
  return db.run(
    `UPDATE outbox SET state = 'due', next_at = $2
     WHERE (${CHANNEL} = $1 OR destination = $1) AND (state = 'failed' OR state = 'due' AND next_at > $2)
       AND (claimed_until IS NULL OR claimed_until <= $2) AND (CAST($3 AS text) IS NULL OR enquiry_id = $3)`,
    [destination, now, enquiryId ?? null],
  );
}

/**
 * Due rows of one destination, leased to this sender until leaseUntil under a new token. On
 * PostgreSQL, rows another instance is claiming are skipped rather than waited for (FOR UPDATE SKIP
 * LOCKED); SQLite has one writer at a time anyway. The enquiries are not read here but right before
 * each send (claimedEnquiry), so that one erased meanwhile is not sent.
 */
export async function claimDue(
  db: Engine,
  destination: string,
  now: string,
  leaseUntil: string,
  limit: number,
  filter: ClaimFilter = {},
): Promise<Claim[]> {
  const token = randomUUID();
  const params: SqlValue[] = [now, leaseUntil, destination, limit, token];
  const only = (value: string | undefined, condition: (n: number) => string) =>
    value === undefined ? "" : `AND ${condition(params.push(value))}`;
  const byEnquiry = only(filter.enquiryId, (n) => `enquiry_id = $${n}`);
  const notStopped = only(
    filter.settingHash,
    (n) => `NOT EXISTS (SELECT 1 FROM stopped_destinations s WHERE s.destination = $3 AND s.setting_hash = $${n})`,
  );
  const rows = await db.transaction((sql) =>
    sql.all<{ seq: number; enquiry_id: string; message_id: string; attempts: number }>(
      `UPDATE outbox SET claimed_until = $2, claim_token = $5
       WHERE seq IN (SELECT seq FROM outbox
         WHERE ${CHANNEL} = $3 AND state = 'due' AND next_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
           ${byEnquiry} ${notStopped}
         ORDER BY next_at, seq LIMIT $4${db.kind === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""})
       RETURNING seq, enquiry_id, message_id, attempts`,
      params,
    ),
  );
  return rows
    .map((row) => ({
      seq: Number(row.seq),
      token,
      enquiryId: row.enquiry_id,
      destination,
      messageId: row.message_id,
      attempts: Number(row.attempts),
    }))
    .sort((a, b) => a.seq - b.seq);
}

/** The claimed row's enquiry, read as its send begins; undefined when it was erased or the claim was lost. */
export async function claimedEnquiry(db: Engine, claim: Claim): Promise<StoredEnquiry | undefined> {
  const [found] = await db.all<{ data: unknown }>(
    `SELECT e.data FROM outbox o JOIN enquiries e ON e.id = o.enquiry_id WHERE o.seq = $1 AND o.claim_token = $2`,
    [claim.seq, claim.token],
  );
  return found && readStoredLine(jsonValue(found.data));
}

/** Gives a claimed row back unsent (its destination stopped during the pass): due as it was. */
export async function releaseClaim(db: Engine, claim: Claim): Promise<void> {
  await db.run("UPDATE outbox SET claimed_until = NULL, claim_token = NULL WHERE seq = $1 AND claim_token = $2", [
    claim.seq,
    claim.token,
  ]);
}

/**
 * Records the attempt if the row still carries this claim's token; false when it does not (another
 * sender took it over after the lease, and may have recorded its own result; or the enquiry was
 * erased): nothing is written then. A stopped destination's attempt does not count toward the
 * schedule.
 */
export function recordAttempt(db: Engine, claim: Claim, attempt: Attempt): Promise<boolean> {
  const state = attempt.nextAt ? "due" : attempt.outcome;
  return db.transaction(async (sql) => {
    // First, so that the row is held (PostgreSQL: locked) before anything refers to it.
    const held = await sql.run(
      `UPDATE outbox SET state = $3, attempts = attempts + $4, next_at = COALESCE($5, next_at),
         claimed_until = NULL, claim_token = NULL
       WHERE seq = $1 AND claim_token = $2`,
      [claim.seq, claim.token, state, attempt.outcome === "stopped" ? 0 : 1, attempt.nextAt ?? null],
    );
    if (held === 0) return false;
    // An e-mail's attempt is also the enquiry's delivery record, which `list` and the duplicate rule read.
    if (claim.destination === "email") {
      await sql.run(
        "INSERT INTO deliveries (enquiry_id, at, outcome, detail) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        [claim.enquiryId, attempt.at, attempt.outcome === "done" ? "delivered" : "failed", attempt.detail ?? null],
      );
    }
    await sql.run("INSERT INTO outbox_attempts (outbox_seq, at, outcome, detail) VALUES ($1, $2, $3, $4)", [
      claim.seq,
      attempt.at,
      attempt.outcome,
      attempt.detail ?? null,
    ]);
    return true;
  });
}

export async function outboxStates(db: Engine): Promise<OutboxState[]> {
  const rows = await db.all<{
    seq: number;
    enquiry_id: string;
    destination: string;
    state: OutboxState["state"];
    attempts: number;
  }>(`SELECT seq, enquiry_id, ${CHANNEL} AS destination, state, attempts FROM outbox ORDER BY seq`);
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

/**
 * A destination that answered 410 Gone, for the setting it had (a hash of its URL): none of its rows
 * is claimed while that is the setting. Its waiting rows start the schedule afresh, due at once, so
 * the next URL gets every attempt (their history stays in outbox_attempts).
 */
export async function stopDestination(db: Engine, destination: string, settingHash: string, at: string): Promise<void> {
  await db.transaction(async (sql) => {
    await sql.run(
      "INSERT INTO stopped_destinations (destination, setting_hash, at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
      [destination, settingHash, at],
    );
    await sql.run(`UPDATE outbox SET attempts = 0, next_at = $2 WHERE ${CHANNEL} = $1 AND state = 'due'`, [
      destination,
      at,
    ]);
  });
}

export async function isStopped(db: Engine, destination: string, settingHash: string): Promise<boolean> {
  const rows = await db.all(
    "SELECT 1 AS stopped FROM stopped_destinations WHERE destination = $1 AND setting_hash = $2",
    [destination, settingHash],
  );
  return rows.length > 0;
}
