/**
 * ENQUIRY_RETENTION_DAYS: enquiries received longer ago than that are removed, with their delivery,
 * review and outbox rows, and the lines an import set aside from that time, by the service once a
 * day (unset: every enquiry is kept). The log says how many and before when, never whose, and warns
 * when a copy may remain on disk for now (the store could not empty SQLite's WAL).
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
  log: Pick<Console, "info" | "warn">,
): Promise<number | undefined> {
  if (days === undefined) return undefined;
  const cutoff = new Date(now - days * DAY_MS).toISOString();
  const { enquiries, setAsideLines, incomplete } = await store.purgeBefore(cutoff);
  const lines = setAsideLines > 0 ? ` and ${setAsideLines} set-aside line${setAsideLines === 1 ? "" : "s"}` : "";
  log.info(
    `enquiry store: retention (ENQUIRY_RETENTION_DAYS=${days}): removed ${enquiries} enquir${enquiries === 1 ? "y" : "ies"}${lines} received before ${cutoff}`,
  );
  if (incomplete) log.warn(`enquiry store: retention: ${incomplete}; the next purge tries again`);
  return enquiries;
}
