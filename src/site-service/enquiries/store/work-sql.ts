/**
 * An enquiry's work state (status, owner, version, answered time) and the audit's lines, in SQL
 * within the caller's transaction: shared by the inbox's store (./inbox-store) and the replies'
 * (./reply-store), whose first reply changes the work in the transaction that stores it.
 */
import { isoTime, type Sql } from "./engine";

export const WORK_STATUSES = ["new", "in progress", "answered", "closed", "spam"] as const;
export type WorkStatus = (typeof WORK_STATUSES)[number];

export type AuditAction = "view" | "export" | "list" | "erase" | "saved-answer";

export interface WorkState {
  enquiryId: string;
  status: WorkStatus;
  ownerId?: number;
  version: number;
  answeredAt?: string;
}

export interface WorkChange {
  status?: WorkStatus;
  /** null: no owner. */
  ownerId?: number | null;
  /** Sets the answered time if it is not set, whatever the status (a first reply: ./reply-store). */
  answered?: boolean;
}

export type WorkChangeResult =
  { outcome: "changed"; state: WorkState } | { outcome: "conflict"; state: WorkState } | { outcome: "not-found" };

export type WorkRow = { enquiry_id: string; status: string; owner_id: unknown; version: unknown; answered_at: unknown };

export function workOf(row: WorkRow): WorkState {
  return {
    enquiryId: row.enquiry_id,
    status: row.status as WorkStatus,
    ...(row.owner_id != null && { ownerId: Number(row.owner_id) }),
    version: Number(row.version),
    ...(row.answered_at != null && { answeredAt: isoTime(row.answered_at) }),
  };
}

export async function workState(sql: Sql, enquiryId: string): Promise<WorkState | undefined> {
  const [row] = await sql.all<WorkRow>(
    "SELECT enquiry_id, status, owner_id, version, answered_at FROM enquiry_work WHERE enquiry_id = $1",
    [enquiryId],
  );
  return row && workOf(row);
}

/**
 * InboxStore.changeWork within the caller's transaction (a reply changes the work in the one that
 * stores it). answered: the answered time is set, if it was not, whatever the status (a first reply).
 */
export async function changeWorkIn(
  sql: Sql,
  enquiryId: string,
  expectedVersion: number,
  change: WorkChange,
  personId: number | undefined,
  at: string,
): Promise<WorkChangeResult> {
  const before = await workState(sql, enquiryId);
  if (!before) return { outcome: "not-found" };
  if (before.version !== expectedVersion) return { outcome: "conflict", state: before };
  const status = change.status ?? before.status;
  const ownerId = change.ownerId === undefined ? (before.ownerId ?? null) : change.ownerId;
  const changed = await sql.run(
    `UPDATE enquiry_work SET status = $3, owner_id = $4, version = version + 1,
       answered_at = CASE WHEN ($3 = 'answered' OR $6 = 1) AND answered_at IS NULL THEN $5 ELSE answered_at END
     WHERE enquiry_id = $1 AND version = $2`,
    [enquiryId, expectedVersion, status, ownerId, at, change.answered ? 1 : 0],
  );
  // Another instance's change committed between the read and the update (PostgreSQL).
  if (changed === 0) return { outcome: "conflict", state: (await workState(sql, enquiryId))! };
  const record = (what: string) =>
    sql.run("INSERT INTO history (enquiry_id, person_id, at, what) VALUES ($1, $2, $3, $4)", [
      enquiryId,
      personId ?? null,
      at,
      what,
    ]);
  if (status !== before.status) await record(`status: ${before.status} → ${status}`);
  if (ownerId !== (before.ownerId ?? null)) {
    const [owner] =
      ownerId === null ? [] : await sql.all<{ name: string }>("SELECT name FROM people WHERE id = $1", [ownerId]);
    await record(`owner: ${owner ? owner.name : "none"}`);
  }
  return { outcome: "changed", state: (await workState(sql, enquiryId))! };
}

/** One line of the audit (within the caller's transaction, when it gives one). */
export async function insertAudit(
  sql: Sql,
  by: { personId?: number; operatorAccount?: string; at: string },
  action: AuditAction,
  subject: string,
): Promise<void> {
  await sql.run("INSERT INTO audit (person_id, operator_account, at, action, subject) VALUES ($1, $2, $3, $4, $5)", [
    by.personId ?? null,
    by.operatorAccount ?? null,
    by.at,
    action,
    subject,
  ]);
}
