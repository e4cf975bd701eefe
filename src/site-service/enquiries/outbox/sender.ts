/**
 * The outbox's sender: claims the due rows of each destination, sends them, records every attempt,
 * and schedules the next (./schedule) or gives up, loudly, after about three days. Every instance
 * runs one (the service on a timer and after each enquiry, the Gatsby Function after each enquiry,
 * `npm run enquiries -- retry` once): claims are leased, so each row is sent by one at a time, and
 * fenced (a token), so a send that outlived its lease cannot overwrite the result of the sender that
 * took the row over. Delivery is at least once: such a slow send may still arrive after the other's.
 */
import type { Claim, EnquiryStore, StoredEnquiry } from "../store/store";
import { MAX_ATTEMPTS, nextAttemptAt } from "./schedule";

export type SendOutcome =
  { ok: true; detail?: string } | { ok: false; error: string; gone?: boolean; retryAfterMs?: number };

export interface Destination {
  name: string;
  /** A hash of its setting: a destination stopped by 410 starts again when the setting changes. */
  settingHash: string;
  /** For the log: where it goes, without secrets. */
  describe: string;
  send(enquiry: StoredEnquiry, messageId: string): Promise<SendOutcome>;
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
  attempts: Array<{ destination: string; enquiry: StoredEnquiry; ok: boolean; error?: string }>;
}

export interface PassOptions {
  /** Only this enquiry's rows (the Function's own enquiry, in its request). */
  enquiryId?: string;
  /**
   * The destination whose failure is final, not retried (ENQUIRY_AWAIT_DELIVERY: the e-mail, the visitor was told to
   * send again).
   */
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

  /** One destination within one pass: once it answers 410, nothing more is sent to it. */
  interface Run {
    destination: Destination;
    summary: SendSummary;
    final: boolean;
    gone: boolean;
  }

  async function sendOne(run: Run, claim: Claim): Promise<void> {
    const { destination, summary } = run;
    const what = `enquiry ${claim.enquiryId}: ${destination.name} (${destination.describe})`;
    if (run.gone) return store.releaseClaim(claim);
    // Read now, not at the claim: an enquiry erased since is not sent.
    const enquiry = await store.claimedEnquiry(claim);
    if (!enquiry) {
      log.info(`${what}: not sent, the enquiry was erased (or another sender holds the row)`);
      return;
    }
    if (run.gone) return store.releaseClaim(claim);
    const outcome = await destination.send(enquiry, claim.messageId);
    const at = new Date(now()).toISOString();
    summary.attempts.push({
      destination: destination.name,
      enquiry,
      ok: outcome.ok,
      ...(!outcome.ok && { error: outcome.error }),
    });
    const record = async (attempt: Parameters<EnquiryStore["recordAttempt"]>[1]) => {
      if (await store.recordAttempt(claim, attempt)) return;
      log.warn(
        `${what}: this attempt (${attempt.outcome}${attempt.detail ? `, ${attempt.detail}` : ""}) is not recorded: ` +
          "its claim ran out and another sender took the row over, or the enquiry was erased",
      );
    };
    if (outcome.ok) {
      summary.done += 1;
      return record({ at, outcome: "done", detail: outcome.detail });
    }
    if (outcome.gone) {
      // The row stays due, this attempt uncounted: once the setting names another endpoint, the
      // enquiry goes there with the whole schedule ahead of it.
      summary.stopped += 1;
      const first = !run.gone;
      run.gone = true;
      await record({ at, outcome: "stopped", detail: outcome.error, nextAt: at });
      await store.stopDestination(destination.name, destination.settingHash, at);
      if (first) {
        log.error(
          `${destination.name} (${destination.describe}) answered 410 Gone (${what}): nothing more is sent there ` +
            "until its setting changes; its enquiries wait, and go to the new one",
        );
      }
      return;
    }
    const next = run.final ? undefined : nextAttemptAt(claim.attempts + 1, now(), random, outcome.retryAfterMs);
    if (run.final) {
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
        `${what}: attempt ${claim.attempts + 1} failed (${outcome.error}); next at ${new Date(next).toISOString()}`,
      );
    }
    const nextAt = next === undefined ? undefined : new Date(next).toISOString();
    return record({ at, outcome: "failed", detail: outcome.error, nextAt });
  }

  return {
    async sendDue(pass: PassOptions = {}) {
      const summary: SendSummary = { done: 0, retrying: 0, failed: 0, stopped: 0, attempts: [] };
      for (const destination of destinations) {
        if (await store.isStopped(destination.name, destination.settingHash)) continue;
        const run: Run = { destination, summary, final: pass.finalFor === destination.name, gone: false };
        const seen = new Set<number>();
        // Bounded: a batch at a time, as long as batches come back full, each row at most once a pass.
        for (let round = 0; round < 50 && !run.gone; round += 1) {
          const at = now();
          const claims = await store.claimDue(
            destination.name,
            new Date(at).toISOString(),
            new Date(at + leaseMs).toISOString(),
            BATCH,
            { enquiryId: pass.enquiryId, settingHash: destination.settingHash },
          );
          const again = claims.filter((claim) => seen.has(claim.seq));
          for (const claim of claims) seen.add(claim.seq);
          const results = await Promise.allSettled(
            claims.map((claim) => (again.includes(claim) ? store.releaseClaim(claim) : sendOne(run, claim))),
          );
          // One row's trouble (a database error while recording it) does not hold up the others.
          for (const result of results) {
            if (result.status === "rejected") {
              log.error(`outbox: ${destination.name}: ${(result.reason as Error)?.message ?? String(result.reason)}`);
            }
          }
          if (claims.length < BATCH || again.length > 0) break;
        }
      }
      return summary;
    },
  };
}
