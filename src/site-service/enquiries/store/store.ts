/**
 * Where enquiries live: a database, SQLite in ENQUIRY_DATA_DIR by default, PostgreSQL when
 * DATABASE_URL is set (./sql-store, over ./sqlite-engine or ./postgres-engine). All the receiver's
 * SQL is in this folder; the rest of it sees the EnquiryStore below.
 *   enquiries   one row per accepted enquiry, committed before the visitor is answered; its fields
 *               as the stored line (./stored-record) in a JSON column
 *   deliveries  one row per delivery attempt's outcome
 *   reviews     one row per suspect enquiry a person marked as not spam (`enquiries not-spam`)
 *   outbox      one row per enquiry and destination (the e-mail, a webhook), and every attempt
 *   alerts      one row per incident: a channel failing, open until it delivers again (./alert-store)
 *   operator_notices
 *               doctor's notices to the operator, kept until sent, and every attempt (./operator-notice-store)
 *   people, passkeys, invitations, sessions, enquiry_work, notes, history, audit
 *               the inbox's (./inbox-store): who may sign in, and each enquiry's work
 *   erasure_log, backups
 *               each erasure, without the address (./erasure-log); when each backup was made (./backup)
 * An enquiry's state is its own row's, overridden by its latest delivery, cleared of suspicion by a review.
 */
import type { Attempt, Claim, ClaimFilter, OutboxEntry, OutboxState } from "./outbox-store";
import type { StoredEnquiry } from "./stored-record";
import type { ChannelBacklog, OpenAlert } from "./alert-store";
import type { ErasureRecord, InboxStore } from "./inbox-store";
import type { OperatorNoticeStore } from "./operator-notice-store";

export type { Attempt, ChannelBacklog, Claim, ClaimFilter, OpenAlert, OutboxEntry, OutboxState, StoredEnquiry };

/** stored-only: mail was not configured when it arrived; pending: not (yet) known to be sent. */
export type DeliveryState = "pending" | "delivered" | "failed" | "stored-only";

export interface DeliveryEvent {
  id: string;
  at: string;
  delivery: "delivered" | "failed";
  messageId?: string;
  error?: string;
}

/** A person's word on a suspect enquiry: it is not spam. */
export interface ReviewEvent {
  id: string;
  at: string;
  review: "not-spam";
}

export interface EnquiryRecord extends Omit<StoredEnquiry, "delivery"> {
  delivery: DeliveryState;
  attempts: number;
  lastAttemptAt?: string;
  lastError?: string;
  /** When a person marked this suspect enquiry as not spam. */
  clearedAt?: string;
  /** Its outbox rows (a webhook), when it has any. */
  outbox?: Array<Omit<OutboxState, "enquiryId">>;
}

/**
 * Which earlier enquiry a new one repeats: the same duplicate key (../core/duplicates) received at
 * `since` or later; with ignoreFailed, one whose delivery failed and never succeeded does not count
 * (ENQUIRY_AWAIT_DELIVERY told that visitor to send again).
 */
export interface DuplicateRule {
  key: string;
  since: string;
  ignoreFailed: boolean;
}

/** What start did: the engine's checked settings, the schema, the JSON-lines files imported. */
export interface StoreReport {
  engine: "sqlite" | "postgres";
  where: string;
  checked: string;
  schemaVersion: number;
  migrationsApplied: string[];
  imported: { enquiries: number; deliveries: number; reviews: number; files: string[]; unreadableLines: number };
}

/** What erasure or retention removed, and, when some copy may remain on disk, why (for the operator). */
export interface Removal {
  enquiries: number;
  /** Lines an import set aside (./set-aside). */
  setAsideLines: number;
  incomplete?: string;
  /**
   * Erasure only: false when ENQUIRY_ERASURE_KEY is not set: the erasure log has no hash of the
   * address, and a backup put back cannot replay this erasure (./erasure-log).
   */
  replayable?: false;
}

export interface EnquiryStore {
  readonly engine: "sqlite" | "postgres";
  /** The file or the database, for messages. */
  readonly where: string;
  /** The inbox's people, sessions and each enquiry's work (it opens the store first, as ready does). */
  readonly inbox: InboxStore;
  /** The operator's notices (`notify-operator`), kept until sent (it opens the store first, as ready does). */
  readonly notices: OperatorNoticeStore;
  /** Opens, migrates and imports, once; after a failure the next call tries again. */
  ready(): Promise<StoreReport>;
  /**
   * Stores it with its outbox rows (one per destination) in one transaction, unless the rule finds
   * an earlier copy: then nothing is stored.
   */
  add(enquiry: StoredEnquiry, duplicates: DuplicateRule, outbox?: OutboxEntry[]): Promise<{ duplicateOf?: string }>;
  findDuplicate(duplicates: DuplicateRule): Promise<string | undefined>;
  recordDelivery(event: DeliveryEvent): Promise<void>;
  /** False when the enquiry had been cleared already (nothing changes). */
  recordReview(event: ReviewEvent): Promise<boolean>;
  /** All enquiries, oldest first, each with its current delivery state; unreadable rows counted. */
  list(): Promise<{ enquiries: EnquiryRecord[]; damagedLines: number }>;
  /** The stored lines as written (./stored-record), oldest first: for export and tests. */
  storedLines(): Promise<object[]>;
  /**
   * The outbox (../outbox): due rows of a destination leased to the caller under a claim's token;
   * the claimed row's enquiry as its send begins (undefined: erased, or the claim was lost); a claim
   * given back unsent.
   */
  claimDue(destination: string, now: string, leaseUntil: string, limit: number, filter?: ClaimFilter): Promise<Claim[]>;
  claimedEnquiry(claim: Claim): Promise<StoredEnquiry | undefined>;
  releaseClaim(claim: Claim): Promise<void>;
  /** Outbox rows for an enquiry stored without them (before the e-mail went through the outbox); how many were new. */
  addOutbox(enquiryId: string, entries: OutboxEntry[], at: string): Promise<number>;
  /**
   * `retry`: a destination's rows waiting or failed for good are due now (unless a sender holds
   * them); how many. enquiryId: that enquiry's only (the inbox's re-send).
   */
  dueNow(destination: string, now: string, enquiryId?: string): Promise<number>;
  /**
   * Retention: removes every enquiry received before cutoff, with all its rows, and the set-aside
   * lines whose own time or import is before it; then scrubs the files (Engine.scrub).
   */
  purgeBefore(cutoff: string): Promise<Removal>;
  /** False, and nothing recorded, when the row no longer carries the claim's token (taken over, or erased). */
  recordAttempt(claim: Claim, attempt: Attempt): Promise<boolean>;
  outboxStates(): Promise<OutboxState[]>;
  /**
   * A destination that answered 410 Gone, for the setting it had (a hash): stopped until that
   * changes; its waiting rows start the schedule afresh for the next setting.
   */
  stopDestination(destination: string, settingHash: string, at: string): Promise<void>;
  isStopped(destination: string, settingHash: string): Promise<boolean>;
  /** Deliveries not done, per channel (`status`, the alerts). */
  backlog(): Promise<ChannelBacklog[]>;
  /** Opens the channel's incident; false when one is open already (another instance opened it). */
  openAlert(alert: Omit<OpenAlert, "toldAt">): Promise<boolean>;
  /** Claims the e-mail of the channel's open incident (one caller gets true); unclaim when it could not be sent. */
  claimTelling(channel: string, at: string): Promise<boolean>;
  unclaimTelling(channel: string): Promise<void>;
  /** The channel delivers again; true when an incident was open. */
  closeAlert(channel: string, at: string): Promise<boolean>;
  openAlerts(): Promise<OpenAlert[]>;
  /**
   * Removes every enquiry from this address (any case), with its deliveries, reviews, outbox rows,
   * work state, notes and history,
   * and the set-aside lines that mention the address or one of those enquiries; then scrubs the files.
   * Writes the audit's line of it (who, when, how many) and the erasure log's entry (when, the
   * address as a keyed hash: ./erasure-log) in the same transaction; without a record, by no one
   * known, now.
   */
  erase(email: string, record?: ErasureRecord): Promise<Removal>;
  close(): Promise<void>;
}
