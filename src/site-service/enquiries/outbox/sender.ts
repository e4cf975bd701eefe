/**
 * The outbox's sender: claims the due rows of each destination, sends them, records every attempt,
 * and schedules the next (./schedule) or gives up, loudly, after about three days. Every instance
 * runs one (the service on a timer and after each enquiry, the Gatsby Function after each enquiry,
 * `npm run enquiries -- retry` once): claims are leased, so each row is sent by one at a time.
 */
import type { ClaimedDelivery, EnquiryStore } from "../store/store";
import { MAX_ATTEMPTS, nextAttemptAt } from "./schedule";

export type SendOutcome =
  { ok: true; detail?: string } | { ok: false; error: string; gone?: boolean; retryAfterMs?: number };

export interface Destination {
  name: string;
  /** A hash of its setting: a destination stopped by 410 starts again when the setting changes. */
  settingHash: string;
  /** For the log: where it goes, without secrets. */
  describe: string;
  send(enquiry: ClaimedDelivery["enquiry"], messageId: string): Promise<SendOutcome>;
}

export interface SenderOptions {
  store: EnquiryStore;
  destinations: Destination[];
  log: Pick<Console, "info" | "warn" | "error">;
  /** The schedule's clock and jitter (tests drive both). */
  now?: () => number;
  random?: () => number;
  /** How long a claim holds: past it, a row a dead sender held is due again. */
  leaseMs?: number;
}

export interface SendSummary {
  done: number;
  retrying: number;
  failed: number;
  stopped: number;
  /** Each attempt of the pass, in the order they ended. */
  attempts: Array<{ destination: string; enquiry: ClaimedDelivery["enquiry"]; ok: boolean; error?: string }>;
}

export interface PassOptions {
  /** Only this enquiry's rows (the Function's own enquiry, in its request). */
  enquiryId?: string;
  /** The destination whose failure is final, not retried (ENQUIRY_AWAIT_DELIVERY: the e-mail, the visitor was told to send again). */
  finalFor?: string;
}

const BATCH = 20;

/**
 * Longer than an attempt can take (SMTP: 10 s to connect, 10 s for the greeting, 30 s of silence;
 * a webhook: 15 s), so a row is never claimed again while it is being sent; a sender that died
 * holds its rows this long.
 */
export const LEASE_MS = 2 * 60_000;

export function createSender(options: SenderOptions): { sendDue(pass?: PassOptions): Promise<SendSummary> } {
  const { store, destinations, log } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const leaseMs = options.leaseMs ?? LEASE_MS;

  async function sendOne(
    destination: Destination,
    row: ClaimedDelivery,
    summary: SendSummary,
    final: boolean,
  ): Promise<void> {
    const outcome = await destination.send(row.enquiry, row.messageId);
    const at = new Date(now()).toISOString();
    const what = `enquiry ${row.enquiry.id}: ${destination.name} (${destination.describe})`;
    summary.attempts.push({
      destination: destination.name,
      enquiry: row.enquiry,
      ok: outcome.ok,
      ...(!outcome.ok && { error: outcome.error }),
    });
    if (outcome.ok) {
      summary.done += 1;
      return store.recordAttempt(row.seq, { at, outcome: "done", detail: outcome.detail });
    }
    if (outcome.gone) {
      // The row stays due: once the setting names another endpoint, the enquiry goes there.
      summary.stopped += 1;
      await store.stopDestination(destination.name, destination.settingHash, at);
      log.error(`${what} answered 410 Gone: nothing more is sent there until its setting changes`);
      return store.recordAttempt(row.seq, { at, outcome: "stopped", detail: outcome.error, nextAt: at });
    }
    const next = final ? undefined : nextAttemptAt(row.attempts + 1, now(), random, outcome.retryAfterMs);
    if (final) {
      summary.failed += 1;
      log.error(`${what}: delivery failed (${outcome.error}); the visitor was told to send again`);
    } else if (next === undefined) {
      summary.failed += 1;
      log.error(
        `${what}: delivery FAILED for good after ${MAX_ATTEMPTS} attempts over about three days (${outcome.error})`,
      );
    } else {
      summary.retrying += 1;
      log.warn(
        `${what}: attempt ${row.attempts + 1} failed (${outcome.error}); next at ${new Date(next).toISOString()}`,
      );
    }
    const nextAt = next === undefined ? undefined : new Date(next).toISOString();
    return store.recordAttempt(row.seq, { at, outcome: "failed", detail: outcome.error, nextAt });
  }

  return {
    async sendDue(pass: PassOptions = {}) {
      const summary: SendSummary = { done: 0, retrying: 0, failed: 0, stopped: 0, attempts: [] };
      for (const destination of destinations) {
        if (await store.isStopped(destination.name, destination.settingHash)) continue;
        // Bounded: a batch at a time, as long as batches come back full.
        for (let round = 0; round < 50; round += 1) {
          const at = now();
          const rows = await store.claimDue(
            destination.name,
            new Date(at).toISOString(),
            new Date(at + leaseMs).toISOString(),
            BATCH,
            pass.enquiryId,
          );
          const final = pass.finalFor === destination.name;
          await Promise.all(rows.map((row) => sendOne(destination, row, summary, final)));
          if (rows.length < BATCH) break;
        }
      }
      return summary;
    },
  };
}
