/**
 * The inbox's tables (migrations/<engine>/005-inbox.sql and later): the people who may sign in,
 * their invitations, passkeys and sessions, each enquiry's work state (status, owner, version),
 * notes and history, and the audit of who listed, viewed, exported or erased what (007). Secrets
 * arrive here already hashed (the callers hash invitation tokens and session ids): nothing read
 * from these tables signs anyone in.
 */
import { isoTime, jsonValue, type Engine, type Sql, type SqlValue } from "./engine";
import { ReplyStore } from "./reply-store";
import {
  changeWorkIn,
  insertAudit,
  workOf,
  workState,
  WORK_STATUSES,
  type AuditAction,
  type WorkChange,
  type WorkChangeResult,
  type WorkRow,
  type WorkState,
  type WorkStatus,
} from "./work-sql";

// Their home is ./work-sql (the replies' store shares them); the inbox's callers import them from here.
export { changeWorkIn, insertAudit, WORK_STATUSES };
export type { AuditAction, WorkChange, WorkChangeResult, WorkState, WorkStatus };

export interface Person {
  id: number;
  email: string;
  name: string;
  createdAt: string;
  revokedAt?: string;
}

export interface PersonAccess extends Person {
  passkeys: number;
  sessions: number;
  /** An invitation not used yet and not expired, when there is one: until when it is valid. */
  invitedUntil?: string;
  /** When a passkey of theirs last gave a signature counter that went backwards (a possible clone). */
  possibleCloneAt?: string;
}

/** A sign-in's passkey counter: moved on; not above the stored one (refused: a possible clone); no such passkey. */
export type PasskeyUse = "used" | "counter-backwards" | "gone";

export interface Passkey {
  credentialId: string;
  personId: number;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** What the inbox's list shows of filters; all optional, all together. */
export interface ListFilter {
  status?: WorkStatus;
  /** A person's id, or null: those without an owner. */
  ownerId?: number | null;
  /** Flagged by the screening and not cleared as not spam (true), or the others (false). */
  flagged?: boolean;
  /** Received at or after, before (ISO times). */
  from?: string;
  to?: string;
  /** Words looked for in the name, the e-mail and the message (any case). */
  search?: string;
}

/** Where a page ends: the next page starts after it (newest first). */
export interface PageKey {
  receivedAt: string;
  seq: number;
}

export interface ListedEnquiry {
  seq: number;
  data: unknown;
  verdict?: string;
  cleared: boolean;
  work: WorkState;
}

export interface Note {
  at: string;
  personId?: number;
  text: string;
}

export interface HistoryEntry {
  at: string;
  personId?: number;
  what: string;
}

export interface AuditEntry {
  at: string;
  /** The person's e-mail (the operator's own list), or "operator <account> (CLI)". */
  who?: string;
  action: AuditAction;
  subject: string;
}

/**
 * Who erased, and when, for the audit line every erasure writes: a person of the inbox (by id),
 * or the operator at the CLI (their account on the server); fromEnquiry: the enquiry the inbox's
 * erasure was asked from.
 */
export interface ErasureRecord {
  at: string;
  personId?: number;
  operatorAccount?: string;
  fromEnquiry?: string;
}

/** A session's limits: idle (since it was last used) and in all (since it was made). */
export interface SessionLimits {
  idleMs: number;
  maxMs: number;
}

const normalEmail = (email: string) => email.trim().toLowerCase();
/** How many of the newest enquiries a search reads first (InboxStore.listSql's "recent"). */
const SEARCH_WINDOW = 5_000;
const ALL_ROWS = 2_147_483_647;

type PersonRow = { id: unknown; email: string; name: string; created_at: unknown; revoked_at: unknown };

function personOf(row: PersonRow): Person {
  return {
    id: Number(row.id),
    email: row.email,
    name: row.name,
    createdAt: isoTime(row.created_at),
    ...(row.revoked_at != null && { revokedAt: isoTime(row.revoked_at) }),
  };
}

export class InboxStore {
  private replyStore: ReplyStore | undefined;

  constructor(
    private readonly db: Engine,
    /** Opens and migrates the store first (SqlStore.ready). */
    private readonly ready: () => Promise<unknown>,
    /** How many of the newest enquiries a search reads first (smaller in a test, to cross it). */
    private readonly searchWindow = SEARCH_WINDOW,
  ) {}

  /** Replies to visitors, saved answers and signatures (./reply-store). */
  get replies(): ReplyStore {
    return (this.replyStore ??= new ReplyStore(this.db, this.ready));
  }

  // People and invitations

  /**
   * Adds the person (or gives a revoked one access again, under the name given) and records an
   * invitation by its token's hash, valid until expiresAt; earlier unused invitations of theirs end.
   */
  async invite(email: string, name: string, tokenHash: string, at: string, expiresAt: string): Promise<Person> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      const address = normalEmail(email);
      await sql.run(
        `INSERT INTO people (email, name, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (email) DO UPDATE SET name = excluded.name, revoked_at = NULL`,
        [address, name.trim(), at],
      );
      const person = (await personByEmail(sql, address))!;
      await sql.run("DELETE FROM invitations WHERE person_id = $1 AND used_at IS NULL", [person.id]);
      await sql.run("INSERT INTO invitations (token_hash, person_id, created_at, expires_at) VALUES ($1, $2, $3, $4)", [
        tokenHash,
        person.id,
        at,
        expiresAt,
      ]);
      return person;
    });
  }

  /** The invitation's person, if it is unused, unexpired and its person not revoked (it stays unused). */
  async invitation(tokenHash: string, now: string): Promise<Person | undefined> {
    await this.ready();
    const [row] = await this.db.all<PersonRow>(
      `SELECT p.id, p.email, p.name, p.created_at, p.revoked_at FROM invitations i JOIN people p ON p.id = i.person_id
       WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > $2 AND p.revoked_at IS NULL`,
      [tokenHash, now],
    );
    return row && personOf(row);
  }

  /**
   * Uses the invitation up and stores the passkey made with it, at once: false (nothing stored)
   * when it was used, expired or revoked in between.
   */
  async redeemInvitation(tokenHash: string, passkey: Passkey, now: string): Promise<boolean> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      const used = await sql.run(
        `UPDATE invitations SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
           AND person_id = $3 AND person_id IN (SELECT id FROM people WHERE revoked_at IS NULL)`,
        [tokenHash, now, passkey.personId],
      );
      if (used === 0) return false;
      await sql.run(
        `INSERT INTO passkeys (credential_id, person_id, public_key, counter, transports, created_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [
          passkey.credentialId,
          passkey.personId,
          passkey.publicKey,
          passkey.counter,
          JSON.stringify(passkey.transports),
          now,
        ],
      );
      return true;
    });
  }

  async people(now: string): Promise<PersonAccess[]> {
    await this.ready();
    const rows = await this.db.all<
      PersonRow & { passkeys: unknown; sessions: unknown; invited_until: unknown; possible_clone_at: unknown }
    >(
      `SELECT p.id, p.email, p.name, p.created_at, p.revoked_at,
         (SELECT COUNT(*) FROM passkeys k WHERE k.person_id = p.id) AS passkeys,
         (SELECT MAX(k.possible_clone_at) FROM passkeys k WHERE k.person_id = p.id) AS possible_clone_at,
         (SELECT COUNT(*) FROM sessions s WHERE s.person_id = p.id) AS sessions,
         (SELECT MAX(i.expires_at) FROM invitations i WHERE i.person_id = p.id AND i.used_at IS NULL
            AND i.expires_at > $1) AS invited_until
       FROM people p ORDER BY p.email`,
      [now],
    );
    return rows.map((row) => ({
      ...personOf(row),
      passkeys: Number(row.passkeys),
      sessions: Number(row.sessions),
      ...(row.invited_until != null && { invitedUntil: isoTime(row.invited_until) }),
      ...(row.possible_clone_at != null && { possibleCloneAt: isoTime(row.possible_clone_at) }),
    }));
  }

  async person(id: number): Promise<Person | undefined> {
    await this.ready();
    const [row] = await this.db.all<PersonRow>(
      "SELECT id, email, name, created_at, revoked_at FROM people WHERE id = $1",
      [id],
    );
    return row && personOf(row);
  }

  /**
   * Ends the person's access: revoked, every session, passkey and unused invitation gone, in one
   * transaction. Undefined when no such person. The passkeys go too: invited again (after a lost
   * device, say), only the passkey made from the new link signs them in. The person's generation
   * moves on (each time, revoked already or not): a session of an earlier one is never valid again,
   * whatever started it too late to be deleted here, even once they are invited again.
   */
  async revoke(email: string, at: string): Promise<{ sessions: number; alreadyRevoked: boolean } | undefined> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      const person = await personByEmail(sql, normalEmail(email));
      if (!person) return undefined;
      await sql.run(
        "UPDATE people SET revoked_at = coalesce(revoked_at, $2), generation = generation + 1 WHERE id = $1",
        [person.id, at],
      );
      const sessions = await sql.run("DELETE FROM sessions WHERE person_id = $1", [person.id]);
      await sql.run("DELETE FROM invitations WHERE person_id = $1 AND used_at IS NULL", [person.id]);
      await sql.run("DELETE FROM passkeys WHERE person_id = $1", [person.id]);
      return { sessions, alreadyRevoked: person.revokedAt !== undefined };
    });
  }

  // Passkeys and sessions

  /** A ceremony's challenge, until expiresAt; the expired ones of every ceremony are cleared here. */
  async saveChallenge(
    challenge: string,
    purpose: "register" | "sign-in",
    tokenHash: string | undefined,
    now: string,
    expiresAt: string,
  ) {
    await this.ready();
    await this.db.run("DELETE FROM challenges WHERE expires_at <= $1", [now]);
    await this.db.run("INSERT INTO challenges (challenge, purpose, token_hash, expires_at) VALUES ($1, $2, $3, $4)", [
      challenge,
      purpose,
      tokenHash ?? null,
      expiresAt,
    ]);
  }

  /**
   * Uses the challenge up: true when it was issued for this purpose (and this invitation), and has
   * not expired; a second answer to the same challenge gets false.
   */
  async takeChallenge(challenge: string, purpose: "register" | "sign-in", tokenHash: string | undefined, now: string) {
    await this.ready();
    const rows = await this.db.all<{ token_hash: string | null; expires_at: unknown }>(
      "DELETE FROM challenges WHERE challenge = $1 AND purpose = $2 RETURNING token_hash, expires_at",
      [challenge, purpose],
    );
    const [row] = rows;
    if (!row) return false;
    return (row.token_hash ?? undefined) === tokenHash && Date.parse(isoTime(row.expires_at)) > Date.parse(now);
  }

  async passkey(credentialId: string): Promise<Passkey | undefined> {
    await this.ready();
    const [row] = await this.db.all<{
      credential_id: string;
      person_id: unknown;
      public_key: string;
      counter: unknown;
      transports: string;
    }>(
      `SELECT k.credential_id, k.person_id, k.public_key, k.counter, k.transports FROM passkeys k
       JOIN people p ON p.id = k.person_id WHERE k.credential_id = $1 AND p.revoked_at IS NULL`,
      [credentialId],
    );
    if (!row) return undefined;
    return {
      credentialId: row.credential_id,
      personId: Number(row.person_id),
      publicKey: row.public_key,
      counter: Number(row.counter),
      transports: JSON.parse(row.transports) as string[],
    };
  }

  /**
   * A sign-in with the passkey (its signature checked), with the signature counter its authenticator
   * gave: stored when it is above the stored one (or both are 0: an authenticator without a counter),
   * in the statement that compares them, so two sign-ins at once cannot both pass with one value.
   * Otherwise WebAuthn's sign of a cloned authenticator: nothing stored but the time, for `people`.
   */
  async usePasskey(credentialId: string, counter: number, at: string): Promise<PasskeyUse> {
    await this.ready();
    const used = await this.db.run(
      `UPDATE passkeys SET counter = $2, last_used_at = $3
       WHERE credential_id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0))`,
      [credentialId, counter, at],
    );
    if (used === 1) return "used";
    const marked = await this.db.run("UPDATE passkeys SET possible_clone_at = $2 WHERE credential_id = $1", [
      credentialId,
      at,
    ]);
    return marked === 1 ? "counter-backwards" : "gone";
  }

  /**
   * Starts a session for the person only if they are not revoked, in the statement that checks it,
   * stamped with their access's generation (revoke): false, and no session, when they are revoked.
   * A revoke at the same time comes wholly before or after it: SQLite runs one writer at a time;
   * on PostgreSQL the person's row is read FOR SHARE, which a revoke's update waits for (and then
   * deletes this session) or holds off (then this finds them revoked).
   */
  async startSession(idHash: string, personId: number, at: string): Promise<boolean> {
    await this.ready();
    const started = await this.db.run(
      `INSERT INTO sessions (id_hash, person_id, person_generation, created_at, last_seen_at)
       SELECT $1, p.id, p.generation, $3, $3 FROM people p WHERE p.id = $2 AND p.revoked_at IS NULL
       ${this.db.kind === "postgres" ? "FOR SHARE" : ""}`,
      [idHash, personId, at],
    );
    return started === 1;
  }

  /**
   * The session's person, and the session marked as used now; undefined (and the session gone) when
   * it is idle or old past its limits, its person revoked, or started before their latest revoke.
   */
  async session(idHash: string, now: string, limits: SessionLimits): Promise<Person | undefined> {
    await this.ready();
    const [row] = await this.db.all<
      PersonRow & { s_created: unknown; last_seen_at: unknown; generation: unknown; person_generation: unknown }
    >(
      `SELECT p.id, p.email, p.name, p.created_at, p.revoked_at, p.generation, s.person_generation,
         s.created_at AS s_created, s.last_seen_at
       FROM sessions s JOIN people p ON p.id = s.person_id WHERE s.id_hash = $1`,
      [idHash],
    );
    if (!row) return undefined;
    const at = Date.parse(now);
    const expired =
      row.revoked_at != null ||
      Number(row.person_generation) !== Number(row.generation) ||
      at - Date.parse(isoTime(row.last_seen_at)) > limits.idleMs ||
      at - Date.parse(isoTime(row.s_created)) > limits.maxMs;
    if (expired) {
      await this.endSession(idHash);
      return undefined;
    }
    await this.db.run("UPDATE sessions SET last_seen_at = $2 WHERE id_hash = $1", [idHash, now]);
    return personOf(row);
  }

  async endSession(idHash: string): Promise<void> {
    await this.ready();
    await this.db.run("DELETE FROM sessions WHERE id_hash = $1", [idHash]);
  }

  // An enquiry's work

  async work(enquiryId: string): Promise<WorkState | undefined> {
    await this.ready();
    return workState(this.db, enquiryId);
  }

  /**
   * Changes status and/or owner if the enquiry is still at expectedVersion (its version then goes
   * up by one, and each change is written to its history); otherwise nothing changes and the
   * current state comes back as a conflict. Answered: the first time is kept (received → answered).
   */
  async changeWork(
    enquiryId: string,
    expectedVersion: number,
    change: WorkChange,
    personId: number | undefined,
    at: string,
  ): Promise<WorkChangeResult> {
    await this.ready();
    return this.db.transaction((sql) => changeWorkIn(sql, enquiryId, expectedVersion, change, personId, at));
  }

  /** False when there is no such enquiry. */
  async addNote(enquiryId: string, personId: number | undefined, text: string, at: string): Promise<boolean> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      if (!(await workState(sql, enquiryId))) return false;
      await sql.run("INSERT INTO notes (enquiry_id, person_id, at, text) VALUES ($1, $2, $3, $4)", [
        enquiryId,
        personId ?? null,
        at,
        text,
      ]);
      await sql.run("INSERT INTO history (enquiry_id, person_id, at, what) VALUES ($1, $2, $3, 'note added')", [
        enquiryId,
        personId ?? null,
        at,
      ]);
      return true;
    });
  }

  async notes(enquiryId: string): Promise<Note[]> {
    await this.ready();
    const rows = await this.db.all<{ at: unknown; person_id: unknown; text: string }>(
      "SELECT at, person_id, text FROM notes WHERE enquiry_id = $1 ORDER BY seq",
      [enquiryId],
    );
    return rows.map((r) => ({
      at: isoTime(r.at),
      ...(r.person_id != null && { personId: Number(r.person_id) }),
      text: r.text,
    }));
  }

  async history(enquiryId: string): Promise<HistoryEntry[]> {
    await this.ready();
    const rows = await this.db.all<{ at: unknown; person_id: unknown; what: string }>(
      "SELECT at, person_id, what FROM history WHERE enquiry_id = $1 ORDER BY seq",
      [enquiryId],
    );
    return rows.map((r) => ({
      at: isoTime(r.at),
      ...(r.person_id != null && { personId: Number(r.person_id) }),
      what: r.what,
    }));
  }

  // The list, counts and times

  /** Newest first, `limit` of them after `after` (keyset paging: as fast on the last page as the first). */
  async list(filter: ListFilter, after: PageKey | undefined, limit: number): Promise<ListedEnquiry[]> {
    await this.ready();
    if (!filter.search) return this.listed(this.listSql(filter, after, limit, "all"));
    // A search: first among the newest enquiries after the key only, where a word most enquiries
    // hold fills the page at once; when they hold fewer than a page, whatever matches anywhere.
    const recent = await this.listed(this.listSql(filter, after, limit, "recent"));
    if (recent.length >= limit) return recent;
    return this.listed(this.listSql(filter, after, limit, "found"));
  }

  /**
   * The list's query. "all": newest first through the (received_at, seq) index, each filter tested
   * in turn, stopping at a page. "recent": the same over the SEARCH_WINDOW newest enquiries after the
   * key (complete when it fills a page: every enquiry outside is older). "found": the enquiries
   * holding every word found first (PostgreSQL: by the trigram index of 006 when there is one; else,
   * and on SQLite, one pass over enquiry_work), then listed. Left to themselves, both planners walked
   * the index testing each enquiry's text, every row for a rare word: 0.7 to 2 s at 100,000;
   * "found" alone costs a lookup per match, 2 s for a word all hold (docs/performance.md).
   */
  private listSql(filter: ListFilter, after: PageKey | undefined, limit: number, how: "all" | "recent" | "found") {
    const { where, params } = filterSql({ ...filter, search: how === "all" ? filter.search : undefined });
    const found = how === "found" ? searchSql(filter.search, params) : "";
    // Over the window, each word tested row by row: `|| ''` keeps PostgreSQL from the trigram index,
    // which for a word every enquiry holds would fetch them all.
    if (how === "recent")
      for (const word of searchWords(filter.search))
        where.push(`(w.search_text || '') LIKE $${params.push(likePattern(word))} ESCAPE '\\'`);
    if (found) where.push("w.enquiry_id IN (SELECT enquiry_id FROM found)");
    const afterKey = (alias: string) => {
      if (!after) return "";
      params.push(after.receivedAt, after.seq);
      const [at, seq] = [`$${params.length - 1}`, `$${params.length}`];
      // The first condition bounds the index's range; alone, the OR is a filter on every row passed.
      return `${alias}.received_at <= ${at} AND (${alias}.received_at < ${at} OR ${alias}.seq < ${seq})`;
    };
    if (how === "recent") {
      const key = afterKey("n");
      where.push(`e.seq IN (SELECT n.seq FROM enquiries n ${key ? `WHERE ${key}` : ""}
         ORDER BY n.received_at DESC, n.seq DESC LIMIT ${this.searchWindow})`);
    } else if (after) where.push(afterKey("e"));
    params.push(limit);
    const sql = `${found ? `WITH ${found} ` : ""}SELECT e.seq, e.data, e.verdict, w.enquiry_id, w.status, w.owner_id,
         w.version, w.answered_at, EXISTS (SELECT 1 FROM reviews r WHERE r.enquiry_id = e.id) AS cleared
       FROM enquiries e JOIN enquiry_work w ON w.enquiry_id = e.id
       ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
       ORDER BY e.received_at DESC, e.seq DESC LIMIT $${params.length}`;
    return { sql, params };
  }

  private async listed({ sql, params }: { sql: string; params: SqlValue[] }): Promise<ListedEnquiry[]> {
    const rows = await this.db.all<WorkRow & { seq: unknown; data: unknown; verdict: string | null; cleared: unknown }>(
      sql,
      params,
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      data: jsonValue(row.data),
      ...(row.verdict != null && { verdict: row.verdict }),
      cleared: row.cleared === true || Number(row.cleared) === 1,
      work: workOf(row),
    }));
  }

  /** How many enquiries have each status, and how many are flagged (not cleared). */
  async counts(): Promise<{ byStatus: Record<WorkStatus, number>; flagged: number }> {
    await this.ready();
    const rows = await this.db.all<{ status: string; n: unknown }>(
      "SELECT status, COUNT(*) AS n FROM enquiry_work GROUP BY status",
    );
    const byStatus = Object.fromEntries(WORK_STATUSES.map((s) => [s, 0])) as Record<WorkStatus, number>;
    for (const row of rows) byStatus[row.status as WorkStatus] = Number(row.n);
    const { where, params } = filterSql({ flagged: true });
    const [flagged] = await this.db.all<{ n: unknown }>(
      `SELECT COUNT(*) AS n FROM enquiries e WHERE ${where.join(" AND ")}`,
      params,
    );
    return { byStatus, flagged: Number(flagged?.n ?? 0) };
  }

  /**
   * A mark that moves whenever an enquiry is stored or erased, or any enquiry's work, notes or history
   * changes (every change of them writes a history row): the inbox's pages poll it. From the store
   * alone, so every instance on one PostgreSQL answers alike.
   */
  async changesMark(): Promise<string> {
    await this.ready();
    const [row] = await this.db.all<{ e: unknown; n: unknown; h: unknown }>(
      `SELECT (SELECT MAX(seq) FROM enquiries) AS e, (SELECT COUNT(*) FROM enquiries) AS n,
         (SELECT MAX(seq) FROM history) AS h`,
    );
    return [row?.e, row?.n, row?.h].map((v) => Number(v ?? 0)).join(".");
  }

  /** Received → answered, in ms, of the enquiries answered since `since` (ISO). */
  async answerTimes(since: string): Promise<number[]> {
    await this.ready();
    const rows = await this.db.all<{ received_at: unknown; answered_at: unknown }>(
      `SELECT e.received_at, w.answered_at FROM enquiry_work w JOIN enquiries e ON e.id = w.enquiry_id
       WHERE w.answered_at IS NOT NULL AND w.answered_at >= $1`,
      [since],
    );
    return rows.map((r) => Date.parse(isoTime(r.answered_at)) - Date.parse(isoTime(r.received_at)));
  }

  /** One enquiry's stored line, verdict and deliveries (e-mail, webhook), or undefined. */
  async enquiry(id: string): Promise<
    | {
        data: unknown;
        clearedAt?: string;
        deliveries: Array<{ at: string; outcome: string; detail?: string }>;
        outbox: Array<{ destination: string; state: string; attempts: number; nextAt: string; lastError?: string }>;
      }
    | undefined
  > {
    await this.ready();
    const [row] = await this.db.all<{ data: unknown }>("SELECT data FROM enquiries WHERE id = $1", [id]);
    if (!row) return undefined;
    const [review] = await this.db.all<{ at: unknown }>("SELECT at FROM reviews WHERE enquiry_id = $1", [id]);
    const deliveries = await this.db.all<{ at: unknown; outcome: string; detail: string | null }>(
      "SELECT at, outcome, detail FROM deliveries WHERE enquiry_id = $1 ORDER BY seq",
      [id],
    );
    const outbox = await this.db.all<{
      seq: unknown;
      destination: string;
      state: string;
      attempts: unknown;
      next_at: unknown;
    }>("SELECT seq, destination, state, attempts, next_at FROM outbox WHERE enquiry_id = $1 ORDER BY destination", [
      id,
    ]);
    const lastErrors = await this.db.all<{ outbox_seq: unknown; detail: string | null }>(
      `SELECT a.outbox_seq, a.detail FROM outbox_attempts a JOIN outbox o ON o.seq = a.outbox_seq
       WHERE o.enquiry_id = $1 AND a.outcome <> 'done' ORDER BY a.seq`,
      [id],
    );
    const lastError = new Map(lastErrors.map((a) => [Number(a.outbox_seq), a.detail ?? undefined]));
    return {
      data: jsonValue(row.data),
      ...(review && { clearedAt: isoTime(review.at) }),
      deliveries: deliveries.map((d) => ({
        at: isoTime(d.at),
        outcome: d.outcome,
        ...(d.detail != null && { detail: d.detail }),
      })),
      outbox: outbox.map((o) => ({
        destination: o.destination,
        state: o.state,
        attempts: Number(o.attempts),
        nextAt: isoTime(o.next_at),
        ...(o.state !== "done" &&
          lastError.get(Number(o.seq)) !== undefined && { lastError: lastError.get(Number(o.seq)) }),
      })),
    };
  }

  /** How many enquiries erasure of this address would remove. */
  async countFrom(email: string): Promise<number> {
    await this.ready();
    const [row] = await this.db.all<{ n: unknown }>("SELECT COUNT(*) AS n FROM enquiries WHERE email = $1", [
      normalEmail(email),
    ]);
    return Number(row?.n ?? 0);
  }

  /** A line of its history that is no change of its work state (not spam, a re-send). */
  async recordHistory(enquiryId: string, personId: number | undefined, what: string, at: string): Promise<void> {
    await this.ready();
    await this.db.run("INSERT INTO history (enquiry_id, person_id, at, what) VALUES ($1, $2, $3, $4)", [
      enquiryId,
      personId ?? null,
      at,
      what,
    ]);
  }

  // The audit

  async recordAudit(personId: number | undefined, action: AuditEntry["action"], subject: string, at: string) {
    await this.ready();
    await insertAudit(this.db, { personId, at }, action, subject);
  }

  /**
   * Whether the session's person has an audit line of this action and subject since the session
   * started (the audit names people, not sessions): the inbox's page reloading an enquiry it opened.
   */
  async auditedInSession(sessionHash: string, action: AuditEntry["action"], subject: string): Promise<boolean> {
    await this.ready();
    const rows = await this.db.all<{ seen: unknown }>(
      `SELECT 1 AS seen FROM audit a JOIN sessions s ON s.person_id = a.person_id
       WHERE s.id_hash = $1 AND a.action = $2 AND a.subject = $3 AND a.at >= s.created_at LIMIT 1`,
      [sessionHash, action, subject],
    );
    return rows.length > 0;
  }

  /** Oldest first; `limit` most recent when given. */
  async audit(limit?: number): Promise<AuditEntry[]> {
    await this.ready();
    const rows = await this.db.all<{
      at: unknown;
      email: string | null;
      operator_account: string | null;
      action: string;
      subject: string;
    }>(
      `SELECT * FROM (SELECT a.seq, a.at, p.email, a.operator_account, a.action, a.subject FROM audit a
         LEFT JOIN people p ON p.id = a.person_id ORDER BY a.seq DESC LIMIT $1) recent ORDER BY seq`,
      [limit ?? ALL_ROWS],
    );
    return rows.map((r) => {
      const who = r.email ?? (r.operator_account != null ? `operator ${r.operator_account} (CLI)` : undefined);
      return {
        at: isoTime(r.at),
        ...(who !== undefined && { who }),
        action: r.action as AuditEntry["action"],
        subject: r.subject,
      };
    });
  }
}

/**
 * An erasure's line: how many, and by which enquiry's address it was asked (the inbox), or by an
 * address given to the CLI; never the address, nor the ids of the others erased with it (they would
 * be one more trace of them; a view names the enquiry it opened already).
 */
export function erasureSubject(count: number, record: ErasureRecord): string {
  const how = record.fromEnquiry
    ? `the address of enquiry ${record.fromEnquiry}`
    : record.operatorAccount !== undefined
      ? "an address given to the CLI"
      : "an address";
  return `${count} ${count === 1 ? "enquiry" : "enquiries"}: ${how}`;
}

/** The filter's conditions over enquiries e (and enquiry_work w, joined by the caller when it needs it). */
function filterSql(filter: ListFilter): { where: string[]; params: SqlValue[] } {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const param = (value: SqlValue) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.status) where.push(`w.status = ${param(filter.status)}`);
  if (filter.ownerId === null) where.push("w.owner_id IS NULL");
  else if (filter.ownerId !== undefined) where.push(`w.owner_id = ${param(filter.ownerId)}`);
  const flagged = "e.verdict = 'suspect' AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.enquiry_id = e.id)";
  if (filter.flagged === true) where.push(`(${flagged})`);
  if (filter.flagged === false)
    where.push(`NOT (${flagged.replace("e.verdict = 'suspect'", "coalesce(e.verdict, '') = 'suspect'")})`);
  if (filter.from) where.push(`e.received_at >= ${param(filter.from)}`);
  if (filter.to) where.push(`e.received_at < ${param(filter.to)}`);
  for (const word of searchWords(filter.search))
    where.push(`w.search_text LIKE ${param(likePattern(word))} ESCAPE '\\'`);
  return { where, params };
}

const searchWords = (search: string | undefined) =>
  (search ?? "").toLowerCase().split(/\s+/).filter(Boolean).slice(0, 8);

/** Each word anywhere in the text; % and _ in it are themselves. */
const likePattern = (word: string) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The search's matches, `found AS MATERIALIZED (…)` for a WITH (its patterns added to params), or "". */
function searchSql(search: string | undefined, params: SqlValue[]): string {
  const conditions = searchWords(search).map((word) => {
    params.push(likePattern(word));
    return `search_text LIKE $${params.length} ESCAPE '\\'`;
  });
  if (conditions.length === 0) return "";
  return `found AS MATERIALIZED (SELECT enquiry_id FROM enquiry_work WHERE ${conditions.join(" AND ")})`;
}

async function personByEmail(sql: Sql, email: string): Promise<Person | undefined> {
  const [row] = await sql.all<PersonRow>(
    "SELECT id, email, name, created_at, revoked_at FROM people WHERE email = $1",
    [email],
  );
  return row && personOf(row);
}
