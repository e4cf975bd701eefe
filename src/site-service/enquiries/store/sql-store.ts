/** The EnquiryStore over either engine: the same statements, written once ($1 placeholders). */
import { isoTime, jsonValue, type Engine, type Sql, type TransactionBounds } from "./engine";
import { importJsonLines } from "./import-jsonl";
import { erasureSubject, InboxStore, insertAudit, type ErasureRecord } from "./inbox-store";
import { migrate } from "./migrations";
import { OperatorNoticeStore } from "./operator-notice-store";
import {
  channelBacklog,
  claimTelling,
  closeAlert,
  openAlert,
  openAlerts,
  unclaimTelling,
  type ChannelBacklog,
  type OpenAlert,
} from "./alert-store";
import {
  claimDue,
  claimedEnquiry,
  dueNow,
  insertOutbox,
  isStopped,
  outboxStates,
  recordAttempt,
  releaseClaim,
  stopDestination,
  type Attempt,
  type Claim,
  type ClaimFilter,
  type OutboxEntry,
  type OutboxState,
} from "./outbox-store";
import { enquiryRow, INSERT_ENQUIRY } from "./enquiry-row";
import { erasureEntry, insertErasure, normalAddress } from "./erasure-log";
import { lineTime, mentions, removeSetAsideLines } from "./set-aside";
import { readStoredLine, type StoredEnquiry } from "./stored-record";
import type {
  DeliveryEvent,
  DuplicateRule,
  EnquiryRecord,
  EnquiryStore,
  Removal,
  ReviewEvent,
  StoreReport,
} from "./store";

// An enquiry whose delivery failed and never succeeded: with ignoreFailed ($3 = 1) it is not a duplicate.
const FIND_DUPLICATE = `SELECT e.id FROM enquiries e
  WHERE e.duplicate_key = $1 AND e.received_at >= $2
    AND NOT ($3 = 1 AND EXISTS (SELECT 1 FROM deliveries d WHERE d.enquiry_id = e.id AND d.outcome = 'failed')
             AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.enquiry_id = e.id AND d.outcome = 'delivered'))
  ORDER BY e.seq LIMIT 1`;

export class SqlStore implements EnquiryStore {
  private opening: Promise<StoreReport> | undefined;
  private inboxStore: InboxStore | undefined;
  private noticeStore: OperatorNoticeStore | undefined;

  constructor(
    private readonly db: Engine,
    private readonly dataDir: string,
    /** The import's clock, for the set-aside files' names. */
    private readonly now: () => number = Date.now,
    private readonly migrationBounds?: TransactionBounds,
    /** ENQUIRY_ERASURE_KEY: the erasure log's keyed hashes (./erasure-log); undefined: logged without one. */
    private readonly erasureKey?: string,
  ) {}

  get engine() {
    return this.db.kind;
  }

  get where() {
    return this.db.where;
  }

  get inbox(): InboxStore {
    return (this.inboxStore ??= new InboxStore(this.db, () => this.ready()));
  }

  get notices(): OperatorNoticeStore {
    return (this.noticeStore ??= new OperatorNoticeStore(this.db, () => this.ready()));
  }

  ready(): Promise<StoreReport> {
    this.opening ??= this.start().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  private async start(): Promise<StoreReport> {
    const checked = await this.db.open();
    const { version, applied } = await migrate(this.db, this.migrationBounds);
    const imported = await importJsonLines(this.db, this.dataDir, this.now);
    const { kind: engine, where } = this.db;
    return { engine, where, checked, schemaVersion: version, migrationsApplied: applied, imported };
  }

  async add(
    enquiry: StoredEnquiry,
    rule: DuplicateRule,
    outbox: OutboxEntry[] = [],
  ): Promise<{ duplicateOf?: string }> {
    await this.ready();
    return this.db.transaction(async (sql) => {
      // Two instances given the same enquiry at once: the second waits here, then finds the first.
      await this.db.lock(sql, `enquiry-duplicate:${rule.key}`);
      const duplicateOf = await findDuplicate(sql, rule);
      if (duplicateOf) return { duplicateOf };
      await sql.run(INSERT_ENQUIRY, enquiryRow(enquiry));
      // In the same transaction: an enquiry is never stored without its deliveries, nor they without it.
      await insertOutbox(sql, enquiry.id, outbox, enquiry.receivedAt);
      return {};
    });
  }

  async findDuplicate(rule: DuplicateRule): Promise<string | undefined> {
    await this.ready();
    return findDuplicate(this.db, rule);
  }

  async recordDelivery(event: DeliveryEvent): Promise<void> {
    await this.ready();
    const detail = event.delivery === "delivered" ? (event.messageId ?? null) : (event.error ?? null);
    await this.db.run(
      "INSERT INTO deliveries (enquiry_id, at, outcome, detail) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
      [event.id, event.at, event.delivery, detail],
    );
  }

  async recordReview(event: ReviewEvent): Promise<boolean> {
    await this.ready();
    const changed = await this.db.run(
      "INSERT INTO reviews (enquiry_id, at, review) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
      [event.id, event.at, event.review],
    );
    return changed > 0;
  }

  async storedLines(): Promise<object[]> {
    await this.ready();
    const rows = await this.db.all<{ data: unknown }>("SELECT data FROM enquiries ORDER BY received_at, seq");
    return rows.map((row) => jsonValue(row.data) as object);
  }

  async list(): Promise<{ enquiries: EnquiryRecord[]; damagedLines: number }> {
    await this.ready();
    const byId = new Map<string, EnquiryRecord>();
    let damagedLines = 0;
    for (const line of await this.storedLines()) {
      const record = readStoredLine(line);
      if (record) byId.set(record.id, { ...record, attempts: 0 });
      else damagedLines += 1;
    }
    const attempts = await this.db.all<{ enquiry_id: string; at: unknown; outcome: string; detail: string | null }>(
      "SELECT enquiry_id, at, outcome, detail FROM deliveries ORDER BY seq",
    );
    for (const attempt of attempts) {
      const target = byId.get(attempt.enquiry_id);
      if (!target) continue;
      target.delivery = attempt.outcome as "delivered" | "failed";
      target.attempts += 1;
      target.lastAttemptAt = isoTime(attempt.at);
      target.lastError = attempt.outcome === "failed" ? (attempt.detail ?? undefined) : undefined;
    }
    for (const review of await this.db.all<{ enquiry_id: string; at: unknown }>("SELECT enquiry_id, at FROM reviews")) {
      const target = byId.get(review.enquiry_id);
      if (target) target.clearedAt = isoTime(review.at);
    }
    for (const { enquiryId, ...state } of await outboxStates(this.db)) {
      const target = byId.get(enquiryId);
      if (target) (target.outbox ??= []).push(state);
    }
    return { enquiries: [...byId.values()], damagedLines };
  }

  async claimDue(
    destination: string,
    now: string,
    leaseUntil: string,
    limit: number,
    filter?: ClaimFilter,
  ): Promise<Claim[]> {
    await this.ready();
    return claimDue(this.db, destination, now, leaseUntil, limit, filter);
  }

  async claimedEnquiry(claim: Claim): Promise<StoredEnquiry | undefined> {
    await this.ready();
    return claimedEnquiry(this.db, claim);
  }

  async releaseClaim(claim: Claim): Promise<void> {
    await this.ready();
    return releaseClaim(this.db, claim);
  }

  async addOutbox(enquiryId: string, entries: OutboxEntry[], at: string): Promise<number> {
    await this.ready();
    return this.db.transaction((sql) => insertOutbox(sql, enquiryId, entries, at));
  }

  async dueNow(destination: string, now: string, enquiryId?: string): Promise<number> {
    await this.ready();
    return dueNow(this.db, destination, now, enquiryId);
  }

  async purgeBefore(cutoff: string): Promise<Removal> {
    await this.ready();
    // Their deliveries, reviews, outbox rows and attempts, work state, notes and history go with them
    // (ON DELETE CASCADE).
    const enquiries = await this.db.transaction((sql) =>
      sql.run("DELETE FROM enquiries WHERE received_at < $1", [cutoff]),
    );
    const before = Date.parse(cutoff);
    // A torn line may give no time of its own: its import's then stands for it.
    const setAsideLines = removeSetAsideLines(
      this.dataDir,
      (line, importedAt) => importedAt < before || (lineTime(line) ?? Infinity) < before,
    );
    return this.scrubbed({ enquiries, setAsideLines });
  }

  async recordAttempt(claim: Claim, attempt: Attempt): Promise<boolean> {
    await this.ready();
    return recordAttempt(this.db, claim, attempt);
  }

  async outboxStates(): Promise<OutboxState[]> {
    await this.ready();
    return outboxStates(this.db);
  }

  async stopDestination(destination: string, settingHash: string, at: string): Promise<void> {
    await this.ready();
    return stopDestination(this.db, destination, settingHash, at);
  }

  async isStopped(destination: string, settingHash: string): Promise<boolean> {
    await this.ready();
    return isStopped(this.db, destination, settingHash);
  }

  async backlog(): Promise<ChannelBacklog[]> {
    await this.ready();
    return channelBacklog(this.db);
  }

  async openAlert(alert: Omit<OpenAlert, "toldAt">): Promise<boolean> {
    await this.ready();
    return openAlert(this.db, alert);
  }

  async claimTelling(channel: string, at: string): Promise<boolean> {
    await this.ready();
    return claimTelling(this.db, channel, at);
  }

  async unclaimTelling(channel: string): Promise<void> {
    await this.ready();
    return unclaimTelling(this.db, channel);
  }

  async closeAlert(channel: string, at: string): Promise<boolean> {
    await this.ready();
    return closeAlert(this.db, channel, at);
  }

  async openAlerts(): Promise<OpenAlert[]> {
    await this.ready();
    return openAlerts(this.db);
  }

  async erase(email: string, record?: ErasureRecord): Promise<Removal> {
    await this.ready();
    const address = normalAddress(email);
    // The other tables' rows go with it (ON DELETE CASCADE): no copy is left in a delivery record, a
    // note or the history. The audit's line and the erasure log's entry are written in the same
    // transaction: no erasure without them (and a backup taken holds all three or none). The entry
    // is written even when nothing was erased: an older backup may still hold enquiries of the address.
    const by = record ?? { at: new Date(this.now()).toISOString() };
    const erased = await this.db.transaction(async (sql) => {
      const rows = await sql.all<{ id: string }>("DELETE FROM enquiries WHERE email = $1 RETURNING id", [address]);
      await insertAudit(sql, by, "erase", erasureSubject(rows.length, by));
      await insertErasure(sql, erasureEntry(this.erasureKey, address, by.at));
      return rows;
    });
    // A set-aside delivery or review line names the enquiry, not the address.
    const named = [address, ...erased.map((row) => row.id)];
    const setAsideLines = removeSetAsideLines(this.dataDir, (line) => mentions(line, named));
    const removal = await this.scrubbed({ enquiries: erased.length, setAsideLines });
    return this.erasureKey === undefined ? { ...removal, replayable: false } : removal;
  }

  /** Every time, even when nothing was removed now: an earlier removal's scrub may have been held up. */
  private async scrubbed(removal: Removal): Promise<Removal> {
    const incomplete = await this.db.scrub();
    return incomplete ? { ...removal, incomplete } : removal;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

async function findDuplicate(sql: Sql, rule: DuplicateRule): Promise<string | undefined> {
  const [row] = await sql.all<{ id: string }>(FIND_DUPLICATE, [rule.key, rule.since, rule.ignoreFailed ? 1 : 0]);
  return row?.id;
}
