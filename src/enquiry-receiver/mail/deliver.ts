/** Sending stored enquiries by e-mail and recording each attempt's outcome. */
import type { Mailer } from "./mailer";
import type { DeliveryEvent, EnquiryRecord, EnquiryStore, StoredEnquiry } from "../store/store";

/**
 * How old a "pending" enquiry must be before `retry` sends it: a younger one may still be on its
 * way from the running receiver (the SMTP timeouts bound an attempt to well under this).
 */
export const PENDING_GRACE_MS = 2 * 60_000;

/** One attempt; the outcome is appended to the store whatever it is. */
export async function deliver(
  store: EnquiryStore,
  mailer: Mailer,
  enquiry: StoredEnquiry,
  now = Date.now,
): Promise<DeliveryEvent> {
  let event: DeliveryEvent;
  try {
    const { messageId } = await mailer.send(enquiry);
    event = { id: enquiry.id, at: new Date(now()).toISOString(), delivery: "delivered", messageId };
  } catch (error) {
    event = { id: enquiry.id, at: new Date(now()).toISOString(), delivery: "failed", error: describe(error) };
  }
  await store.recordDelivery(event);
  return event;
}

export interface RetrySummary {
  delivered: EnquiryRecord[];
  failed: Array<EnquiryRecord & { error: string }>;
  /** Pending ones too recent to touch (see PENDING_GRACE_MS). */
  skipped: EnquiryRecord[];
}

/** Re-sends every failed enquiry and every pending one older than the grace period, one by one. */
export async function retryUndelivered(store: EnquiryStore, mailer: Mailer, now = Date.now): Promise<RetrySummary> {
  const summary: RetrySummary = { delivered: [], failed: [], skipped: [] };
  const { enquiries } = await store.list();
  for (const record of enquiries) {
    if (record.delivery !== "failed" && record.delivery !== "pending") continue;
    if (record.delivery === "pending" && now() - Date.parse(record.receivedAt) < PENDING_GRACE_MS) {
      summary.skipped.push(record);
      continue;
    }
    const { attempts: _a, lastAttemptAt: _l, lastError: _e, ...rest } = record;
    const event = await deliver(store, mailer, { ...rest, delivery: "pending" }, now);
    if (event.delivery === "delivered") summary.delivered.push({ ...record, delivery: "delivered" });
    else summary.failed.push({ ...record, delivery: "failed", error: event.error ?? "" });
  }
  return summary;
}

/** An error as one short line for the log and the store (nodemailer adds a code: ECONNREFUSED, EAUTH). */
export function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === "string" ? message : String(error);
  return (typeof code === "string" && !text.includes(code) ? `${code}: ${text}` : text)
    .replace(/\s+/g, " ")
    .slice(0, 300);
}
