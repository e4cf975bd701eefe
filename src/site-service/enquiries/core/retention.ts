/**
 * ENQUIRY_RETENTION_DAYS: enquiries received longer ago than that are removed, with their delivery,
 * review and outbox rows, by the service once a day (unset: every enquiry is kept). The log says how
 * many and before when, never whose.
 */
import type { EnquiryStore } from "../store/store";

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the service purges. */
export const RETENTION_INTERVAL_MS = DAY_MS;

/** Resolves with the number removed, or undefined when retention is off. */
export async function purgeExpired(
  store: Pick<EnquiryStore, "purgeBefore">,
  days: number | undefined,
  now: number,
  log: Pick<Console, "info">,
): Promise<number | undefined> {
  if (days === undefined) return undefined;
  const cutoff = new Date(now - days * DAY_MS).toISOString();
  const removed = await store.purgeBefore(cutoff);
  log.info(
    `enquiry store: retention (ENQUIRY_RETENTION_DAYS=${days}): removed ${removed} enquir${removed === 1 ? "y" : "ies"} received before ${cutoff}`,
  );
  return removed;
}
