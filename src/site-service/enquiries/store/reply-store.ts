/**
 * The replies the inbox's people send a visitor (migrations/<engine>/012), the company's saved
 * answers and each person's signature. A reply is stored with its outbox row in one transaction
 * (destination 'reply:<id>', channel 'reply'), and the outbox's sender sends it like every other
 * mail (../outbox/reply): claimed, retried on the schedule, each attempt recorded. Its key is the
 * page's, one per draft: a second request with it (a double click, two tabs, two instances) finds
 * the first under the enquiry's lock and adds nothing. The first reply sets the answered time, and
 * with markAnswered the status, through the work's versioned change (./inbox-store changeWorkIn).
 */
import { randomUUID } from "node:crypto";
import { isoTime, type Engine } from "./engine";
import { changeWorkIn, insertAudit, workState, type WorkState } from "./work-sql";

export const REPLY_CHANNEL = "reply";
export const SAVED_ANSWERS_MAX = 100;

export interface Reply {
  id: string;
  enquiryId: string;
  personId?: number;
  at: string;
  text: string;
  subject: string;
  delivery: {
    state: "due" | "done" | "failed";
    attempts: number;
    lastError?: string;
    nextAt?: string;
  };
}

export interface NewReply {
  enquiryId: string;
  /** Who wrote it (undefined: no person of the inbox, as a note's). */
  personId?: number;
  key: string;
  text: string;
  subject: string;
  at: string;
  markAnswered: boolean;
}

export type AddReplyResult =
  { outcome: "not-found" } | { outcome: "added" | "repeated"; reply: Reply; work: WorkState };

/** What the sender needs of a reply: its words, and the Message-ID of the e-mail it answers, if recorded. */
export interface ReplyToSend {
  id: string;
  text: string;
  subject: string;
  at: string;
  /** The notification e-mail's Message-ID as its delivery recorded it (the mail server's answer). */
  notificationMessageId?: string;
}

export interface SavedAnswer {
  id: number;
  title: string;
  text: string;
  updatedAt: string;
  /** The person's name. */
  updatedBy?: string;
}

export type SavedAnswerResult = { outcome: "done"; answer: SavedAnswer } | { outcome: "not-found" | "too-many" };

type ReplyRow = {
  id: string;
  enquiry_id: string;
  person_id: unknown;
  at: unknown;
  text: string;
  subject: string;
  state: string | null;
  attempts: unknown;
  next_at: unknown;
  last_error: string | null;
};

const REPLY_COLUMNS = `r.id, r.enquiry_id, r.person_id, r.at, r.text, r.subject, o.state, o.attempts, o.next_at,
  (SELECT a.detail FROM outbox_attempts a WHERE a.outbox_seq = o.seq AND a.outcome <> 'done'
   ORDER BY a.seq DESC LIMIT 1) AS last_error
  FROM replies r LEFT JOIN outbox o ON o.enquiry_id = r.enquiry_id AND o.destination = 'reply:' || r.id`;

function replyOf(row: ReplyRow): Reply {
  // A row stopped (a 410, which no mail server answers) waits as a due one does.
  const state = row.state === "done" || row.state === "failed" ? row.state : "due";
  return {
    id: row.id,
    enquiryId: row.enquiry_id,
    ...(row.person_id != null && { personId: Number(row.person_id) }),
    at: isoTime(row.at),
    text: row.text,
    subject: row.subject,
    delivery: {
      state,
      attempts: Number(row.attempts ?? 0),
      ...(state !== "done" && row.last_error != null && { lastError: row.last_error }),
      ...(state === "due" && row.next_at != null && { nextAt: isoTime(row.next_at) }),
    },
  };
}

type AnswerRow = { id: unknown; title: string; text: string; updated_at: unknown; name: string | null };

function answerOf(row: AnswerRow): SavedAnswer {
  return {
    id: Number(row.id),
    title: row.title,
    text: row.text,
    updatedAt: isoTime(row.updated_at),
    ...(row.name != null && { updatedBy: row.name }),
  };
}

export class ReplyStore {
  constructor(
    private readonly db: Engine,
    /** Opens and migrates the store first (SqlStore.ready). */
    private readonly ready: () => Promise<unknown>,
  ) {}

  // Replies

  /** Stores the reply, its outbox row, its history and the work's change, or finds the one of its key. */
  async add(reply: NewReply): Promise<AddReplyResult> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      // Two requests with one key at once (instances on one PostgreSQL): the second waits, then finds it.
      await this.db.lock(sql, `enquiry-reply:${reply.enquiryId}`);
      const [work] = await sql.all<{ version: unknown }>("SELECT version FROM enquiry_work WHERE enquiry_id = $1", [
        reply.enquiryId,
      ]);
      if (!work) return { outcome: "not-found" };
      const [earlier] = await sql.all<ReplyRow>(`SELECT ${REPLY_COLUMNS} WHERE r.enquiry_id = $1 AND r.key = $2`, [
        reply.enquiryId,
        reply.key,
      ]);
      if (earlier)
        return { outcome: "repeated", reply: replyOf(earlier), work: (await workState(sql, reply.enquiryId))! };
      const [{ n: before } = { n: 0 }] = await sql.all<{ n: unknown }>(
        "SELECT COUNT(*) AS n FROM replies WHERE enquiry_id = $1",
        [reply.enquiryId],
      );
      const id = randomUUID();
      await sql.run(
        `INSERT INTO replies (id, enquiry_id, person_id, key, text, subject, at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, reply.enquiryId, reply.personId ?? null, reply.key, reply.text, reply.subject, reply.at],
      );
      await sql.run(
        `INSERT INTO outbox (enquiry_id, destination, channel, message_id, state, next_at)
         VALUES ($1, $2, $3, $4, 'due', $5)`,
        [reply.enquiryId, `${REPLY_CHANNEL}:${id}`, REPLY_CHANNEL, id, reply.at],
      );
      await sql.run("INSERT INTO history (enquiry_id, person_id, at, what) VALUES ($1, $2, $3, 'replied')", [
        reply.enquiryId,
        reply.personId ?? null,
        reply.at,
      ]);
      // The first reply answers it (the answer time's start); with markAnswered, any reply marks it so.
      const first = Number(before) === 0;
      for (let round = 0; round < 3; round += 1) {
        const now = (await workState(sql, reply.enquiryId))!;
        const status = reply.markAnswered && now.status !== "answered" ? ("answered" as const) : undefined;
        if (!status && (!first || now.answeredAt)) break;
        const changed = await changeWorkIn(
          sql,
          reply.enquiryId,
          now.version,
          { status, answered: first },
          reply.personId,
          reply.at,
        );
        // A change committed by another instance meanwhile: read again, apply on top of it.
        if (changed.outcome !== "conflict") break;
      }
      const [added] = await sql.all<ReplyRow>(`SELECT ${REPLY_COLUMNS} WHERE r.id = $1`, [id]);
      return { outcome: "added", reply: replyOf(added!), work: (await workState(sql, reply.enquiryId))! };
    });
  }

  /** An enquiry's replies, oldest first, each with its delivery. */
  async of(enquiryId: string): Promise<Reply[]> {
    await this.ready();
    const rows = await this.db.all<ReplyRow>(`SELECT ${REPLY_COLUMNS} WHERE r.enquiry_id = $1 ORDER BY r.seq`, [
      enquiryId,
    ]);
    return rows.map(replyOf);
  }

  /** A reply as its send begins; undefined when it is gone (erased with its enquiry). */
  async toSend(id: string): Promise<ReplyToSend | undefined> {
    await this.ready();
    const [row] = await this.db.all<{ id: string; enquiry_id: string; text: string; subject: string; at: unknown }>(
      "SELECT id, enquiry_id, text, subject, at FROM replies WHERE id = $1",
      [id],
    );
    if (!row) return undefined;
    const [delivered] = await this.db.all<{ detail: string | null }>(
      `SELECT detail FROM deliveries WHERE enquiry_id = $1 AND outcome = 'delivered' AND detail IS NOT NULL
       ORDER BY seq LIMIT 1`,
      [row.enquiry_id],
    );
    return {
      id: row.id,
      text: row.text,
      subject: row.subject,
      at: isoTime(row.at),
      ...(delivered?.detail && { notificationMessageId: delivered.detail }),
    };
  }

  // Saved answers

  async savedAnswers(): Promise<SavedAnswer[]> {
    await this.ready();
    const rows = await this.db.all<AnswerRow>(
      `SELECT s.id, s.title, s.text, s.updated_at, p.name FROM saved_answers s
       LEFT JOIN people p ON p.id = s.updated_by ORDER BY lower(s.title), s.id`,
    );
    return rows.map(answerOf);
  }

  /** Adds one (id undefined) or changes one; each change has its line in the audit, in the same transaction. */
  async saveAnswer(
    id: number | undefined,
    answer: { title: string; text: string },
    personId: number,
    at: string,
  ): Promise<SavedAnswerResult> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      await this.db.lock(sql, "saved-answers");
      let saved: number;
      if (id === undefined) {
        const [{ n } = { n: 0 }] = await sql.all<{ n: unknown }>("SELECT COUNT(*) AS n FROM saved_answers");
        if (Number(n) >= SAVED_ANSWERS_MAX) return { outcome: "too-many" };
        const [row] = await sql.all<{ id: unknown }>(
          "INSERT INTO saved_answers (title, text, updated_at, updated_by) VALUES ($1, $2, $3, $4) RETURNING id",
          [answer.title, answer.text, at, personId],
        );
        saved = Number(row!.id);
      } else {
        const changed = await sql.run(
          "UPDATE saved_answers SET title = $2, text = $3, updated_at = $4, updated_by = $5 WHERE id = $1",
          [id, answer.title, answer.text, at, personId],
        );
        if (changed === 0) return { outcome: "not-found" };
        saved = id;
      }
      const what = id === undefined ? "added" : "changed";
      await insertAudit(sql, { personId, at }, "saved-answer", `saved answer ${saved} ${what}: "${answer.title}"`);
      const [row] = await sql.all<AnswerRow>(
        `SELECT s.id, s.title, s.text, s.updated_at, p.name FROM saved_answers s
         LEFT JOIN people p ON p.id = s.updated_by WHERE s.id = $1`,
        [saved],
      );
      return { outcome: "done", answer: answerOf(row!) };
    });
  }

  /** False when there was no such answer. */
  async deleteAnswer(id: number, personId: number, at: string): Promise<boolean> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      const [row] = await sql.all<{ title: string }>("DELETE FROM saved_answers WHERE id = $1 RETURNING title", [id]);
      if (!row) return false;
      await insertAudit(sql, { personId, at }, "saved-answer", `saved answer ${id} deleted: "${row.title}"`);
      return true;
    });
  }

  // Signatures

  async signature(personId: number): Promise<string> {
    await this.ready();
    const [row] = await this.db.all<{ signature: string | null }>("SELECT signature FROM people WHERE id = $1", [
      personId,
    ]);
    return row?.signature ?? "";
  }

  async setSignature(personId: number, signature: string): Promise<void> {
    await this.ready();
    await this.db.run("UPDATE people SET signature = $2 WHERE id = $1", [personId, signature]);
  }
}
