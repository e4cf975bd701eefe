/**
 * When a failed delivery is tried again: exponential backoff (×4 from 30 s) capped at 12 hours, each
 * delay drawn within ±20% (jitter, so that the retries of many enquiries after one outage do not
 * arrive together), for about three days. docs/enquiry-delivery.md gives the table.
 *
 *   attempt   1     2     3     4     5      6      7       8     9     10    11    12
 *   after     now   30s   2m    8m    32m    2h8m   8h32m   12h   12h   12h   12h   12h
 *   total                                           ~11.4 h                     ~2.9 days
 *
 * A Retry-After the destination sends is honoured when it asks for longer (up to a day).
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [
  30_000,
  2 * MINUTE,
  8 * MINUTE,
  32 * MINUTE,
  128 * MINUTE,
  512 * MINUTE,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
  12 * HOUR,
];

/** Attempts in all, the first included: after the last one fails, the delivery has failed. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const MAX_RETRY_AFTER_MS = 24 * HOUR;

/**
 * When to try again after `attemptsMade` attempts (the one that just failed included), or
 * undefined when that was the last. random: [0, 1), injected by tests.
 */
export function nextAttemptAt(
  attemptsMade: number,
  now: number,
  random: () => number,
  retryAfterMs?: number,
): number | undefined {
  if (attemptsMade >= MAX_ATTEMPTS) return undefined;
  const delay = RETRY_DELAYS_MS[attemptsMade - 1]! * (0.8 + 0.4 * random());
  return now + Math.max(delay, Math.min(retryAfterMs ?? 0, MAX_RETRY_AFTER_MS));
}

/** Retry-After as seconds or as an HTTP date, in ms from now; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
