/**
 * The operator's notices (`enquiries notify-operator`: deploy/server/doctor's lines), kept in the store
 * until sent, as the outbox keeps a delivery (./outbox-store): a notice is stored first; a sender
 * claims it under a lease and a token of its own, so that of all the senders (notify-operator
 * itself, the service's, `retry`) one at a time sends it, and records the attempt only while the row
 * still carries that token. A notice holds nothing of any visitor's: the caller's subject and text.
 *
 * The same notice (subject and text) stored while an earlier copy is still due is not stored again:
 * that copy is the one sent (made due at once, unless a sender holds it). Storing one removes the
 * notices sent more than SENT_KEPT_MS before, with their attempts: the table stays small.
 */
import { createHash, randomUUID } from "node:crypto";
import { isoTime, type Engine } from "./engine";

/** How long a sent notice (and its attempts) is kept: for `status` and whoever looks at the table. */
export const SENT_KEPT_MS = 90 * 24 * 3600_000;

export interface NoticeClaim {
  seq: number;
  token: string;
  subject: string;
  text: string;
  /** Attempts made before this one. */
  attempts: number;
}

/** One attempt's outcome: with nextAt the notice stays due until then; a failure without it failed for good. */
export interface NoticeAttempt {
  at: string;
  outcome: "done" | "failed";
  detail?: string;
  nextAt?: string;
}

/** A notice not sent: due (maybe being retried) or failed for good. */
export interface WaitingNotice {
  seq: number;
  subject: string;
  createdAt: string;
  state: "due" | "failed";
  attempts: number;
  nextAt: string;
  lastError?: string;
}

const digestOf = (subject: string, text: string) =>
  createHash("sha256").update(subject).update("\0").update(text).digest("hex");

export class OperatorNoticeStore {
  constructor(
    private readonly db: Engine,
    /** Opens and migrates the store first (SqlStore.ready). */
    private readonly ready: () => Promise<unknown>,
  ) {}

  /**
   * Stores the notice, due at `at`; resolves with its row, and repeated: true when the same notice
   * was due already (that row, now due at once unless a sender holds it). Under a lock, so that two
   * callers with the same notice at once keep one row.
   */
  async add(subject: string, text: string, at: string): Promise<{ seq: number; repeated: boolean }> {
    await this.ready();
    const digest = digestOf(subject, text);
    const sentBefore = new Date(Date.parse(at) - SENT_KEPT_MS).toISOString();
    return this.db.transaction(async (sql) => {
      await this.db.lock(sql, "operator-notices");
      await sql.run("DELETE FROM operator_notices WHERE state = 'done' AND sent_at < $1", [sentBefore]);
      const [due] = await sql.all<{ seq: unknown }>(
        `SELECT seq FROM operator_notices WHERE digest = $1 AND subject = $2 AND text = $3 AND state = 'due'
         ORDER BY seq LIMIT 1`,
        [digest, subject, text],
      );
      if (due) {
        await sql.run(
          `UPDATE operator_notices SET next_at = $2
           WHERE seq = $1 AND next_at > $2 AND (claimed_until IS NULL OR claimed_until <= $2)`,
          [Number(due.seq), at],
        );
        return { seq: Number(due.seq), repeated: true };
      }
      const [row] = await sql.all<{ seq: unknown }>(
        `INSERT INTO operator_notices (digest, subject, text, created_at, state, next_at)
         VALUES ($1, $2, $3, $4, 'due', $4) RETURNING seq`,
        [digest, subject, text, at],
      );
      return { seq: Number(row!.seq), repeated: false };
    });
  }

  /** Due notices (only: that one), leased to this sender until leaseUntil under a new token; oldest first. */
  async claimDue(now: string, leaseUntil: string, limit: number, only?: number): Promise<NoticeClaim[]> {
    await this.ready();
    const token = randomUUID();
    const rows = await this.db.transaction((sql) =>
      sql.all<{ seq: unknown; subject: string; text: string; attempts: unknown }>(
        `UPDATE operator_notices SET claimed_until = $2, claim_token = $4
         WHERE seq IN (SELECT seq FROM operator_notices
           WHERE state = 'due' AND next_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
             AND (CAST($5 AS bigint) IS NULL OR seq = $5)
           ORDER BY next_at, seq LIMIT $3${this.db.kind === "postgres" ? " FOR UPDATE SKIP LOCKED" : ""})
         RETURNING seq, subject, text, attempts`,
        [now, leaseUntil, limit, token, only ?? null],
      ),
    );
    return rows
      .map((r) => ({ seq: Number(r.seq), token, subject: r.subject, text: r.text, attempts: Number(r.attempts) }))
      .sort((a, b) => a.seq - b.seq);
  }

  /** False, and nothing recorded, when the row no longer carries the claim's token (another sender took it over). */
  async recordAttempt(claim: NoticeClaim, attempt: NoticeAttempt): Promise<boolean> {
    await this.ready();
    const state = attempt.nextAt ? "due" : attempt.outcome;
    return this.db.transaction(async (sql) => {
      const held = await sql.run(
        `UPDATE operator_notices SET state = $3, attempts = attempts + 1, next_at = COALESCE($4, next_at),
           sent_at = $5, claimed_until = NULL, claim_token = NULL
         WHERE seq = $1 AND claim_token = $2`,
        [claim.seq, claim.token, state, attempt.nextAt ?? null, attempt.outcome === "done" ? attempt.at : null],
      );
      if (held === 0) return false;
      await sql.run("INSERT INTO operator_notice_attempts (notice_seq, at, outcome, detail) VALUES ($1, $2, $3, $4)", [
        claim.seq,
        attempt.at,
        attempt.outcome,
        attempt.detail ?? null,
      ]);
      return true;
    });
  }

  /** `retry`: notices waiting for a later attempt, or failed for good, are due now (unless a sender holds them). */
  async dueNow(now: string): Promise<number> {
    await this.ready();
    return this.db.run(
      `UPDATE operator_notices SET state = 'due', next_at = $1
       WHERE (state = 'failed' OR state = 'due' AND next_at > $1) AND (claimed_until IS NULL OR claimed_until <= $1)`,
      [now],
    );
  }

  /** The notices not sent, oldest first, each with its last error (`status`). */
  async waiting(): Promise<WaitingNotice[]> {
    await this.ready();
    const rows = await this.db.all<{
      seq: unknown;
      subject: string;
      created_at: unknown;
      state: "due" | "failed";
      attempts: unknown;
      next_at: unknown;
      detail: string | null;
    }>(
      `SELECT n.seq, n.subject, n.created_at, n.state, n.attempts, n.next_at,
         (SELECT a.detail FROM operator_notice_attempts a WHERE a.notice_seq = n.seq AND a.outcome <> 'done'
          ORDER BY a.seq DESC LIMIT 1) AS detail
       FROM operator_notices n WHERE n.state <> 'done' ORDER BY n.seq`,
    );
    return rows.map((r) => ({
      seq: Number(r.seq),
      subject: r.subject,
      createdAt: isoTime(r.created_at),
      state: r.state,
      attempts: Number(r.attempts),
      nextAt: isoTime(r.next_at),
      ...(r.detail != null && { lastError: r.detail }),
    }));
  }
}
