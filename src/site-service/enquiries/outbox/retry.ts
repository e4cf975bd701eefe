/**
 * `npm run enquiries -- retry`: every delivery that failed, for good or for now, or waits for its
 * next attempt, is sent now, through the outbox's claims, so that it is sent once however many
 * `retry` and services run: the e-mail's (retryUndelivered) and the webhook's (retryDestination),
 * with the message id each row has had from the start. Enquiries stored before the e-mail went
 * through the outbox (imported JSON-lines files, or a database of that version) get their e-mail row first.
 */
import type { Mailer } from "../mail/mailer";
import type { EnquiryRecord, EnquiryStore, StoredEnquiry } from "../store/store";
import { EMAIL, emailDestination } from "./email";
import { createSender, type Destination, type SendSummary } from "./sender";

/**
 * How old a "pending" enquiry without an e-mail row must be before `retry` gives it one: a younger
 * one may still be on its way from a receiver of the version before the outbox.
 */
export const PENDING_GRACE_MS = 2 * 60_000;

export interface RetrySummary {
  delivered: StoredEnquiry[];
  failed: Array<StoredEnquiry & { error: string }>;
  /** Pending ones without an e-mail row, too recent to touch (see PENDING_GRACE_MS). */
  skipped: EnquiryRecord[];
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function retryUndelivered(
  store: EnquiryStore,
  mailer: Mailer,
  now = Date.now,
  log: Pick<Console, "info" | "warn" | "error"> = quiet,
): Promise<RetrySummary> {
  const summary: RetrySummary = { delivered: [], failed: [], skipped: [] };
  const at = new Date(now()).toISOString();
  for (const record of (await store.list()).enquiries) {
    if (record.delivery !== "failed" && record.delivery !== "pending") continue;
    if (record.outbox?.some((row) => row.destination === EMAIL)) continue;
    if (record.delivery === "pending" && now() - Date.parse(record.receivedAt) < PENDING_GRACE_MS) {
      summary.skipped.push(record);
      continue;
    }
    await store.addOutbox(record.id, [{ destination: EMAIL, messageId: `msg_${record.id}` }], at);
  }
  const sent = await retryDestination(store, emailDestination(mailer), now, log);
  for (const attempt of sent.attempts) {
    if (attempt.ok) summary.delivered.push(attempt.enquiry);
    else summary.failed.push({ ...attempt.enquiry, error: attempt.error ?? "" });
  }
  return summary;
}

/** One destination's rows that wait or failed for good, sent now (a stopped one's are left: see isStopped). */
export async function retryDestination(
  store: EnquiryStore,
  destination: Destination,
  now = Date.now,
  log: Pick<Console, "info" | "warn" | "error"> = quiet,
): Promise<SendSummary> {
  await store.dueNow(destination.name, new Date(now()).toISOString());
  return createSender({ store, destinations: [destination], log, now }).sendDue();
}
