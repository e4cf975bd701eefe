/**
 * Sends the operator's notices kept in the store (../store/operator-notice-store) with the outbox's
 * guarantees (./sender): each due notice claimed under a lease and a token, sent to ENQUIRY_ALERT_TO
 * (else ENQUIRY_TO) through SMTP_URL, every attempt recorded, the next on the outbox's schedule
 * (./schedule), and given up loudly after it ends (about three days). Every sender runs it:
 * `notify-operator` for the notice it just stored, the service's on its timer, `retry`.
 */
import type { SendMailOptions } from "nodemailer";
import type { EnquiryConfig } from "../core/config";
import { describe } from "../mail/deliver";
import { smtpTransport } from "../mail/mailer";
import type { NoticeClaim } from "../store/operator-notice-store";
import type { EnquiryStore } from "../store/store";
import { MAX_ATTEMPTS, nextAttemptAt } from "./schedule";
import { LEASE_MS } from "./sender";

/** The header a mail filter can sort these by. */
export const NOTICE_HEADER = "X-Operator-Notice";

export interface Notice {
  subject: string;
  text: string;
}

export interface NoticeMailer {
  send(notice: Notice): Promise<void>;
}

/** Undefined when there is no mail server or no one to tell. */
export function createNoticeMailer(
  config: Pick<EnquiryConfig, "smtpUrl" | "alertTo" | "from">,
): NoticeMailer | undefined {
  const { smtpUrl, alertTo, from } = config;
  if (!smtpUrl || !alertTo) return undefined;
  const transport = smtpTransport(smtpUrl);
  return {
    async send(notice) {
      await transport.sendMail(composeNotice(notice, alertTo, from ?? alertTo));
    },
  };
}

export function composeNotice(notice: Notice, to: string, from: string): SendMailOptions {
  return {
    from,
    to,
    subject: notice.subject,
    text: notice.text.endsWith("\n") ? notice.text : `${notice.text}\n`,
    headers: { [NOTICE_HEADER]: "1" },
  };
}

export interface NoticeSummary {
  /** Each attempt of the pass, in the order they ended. */
  attempts: Array<{ seq: number; subject: string; ok: boolean; error?: string; nextAt?: string }>;
}

export interface NoticeOptions {
  log: Pick<Console, "info" | "warn" | "error">;
  now?: () => number;
  random?: () => number;
  leaseMs?: number;
  /** Only this notice (the one notify-operator just stored). */
  only?: number;
}

const BATCH = 20;

/** One pass over the due notices (a bounded number of batches). */
export async function sendDueNotices(
  store: EnquiryStore,
  mailer: NoticeMailer,
  options: NoticeOptions,
): Promise<NoticeSummary> {
  const { log } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const summary: NoticeSummary = { attempts: [] };
  const seen = new Set<number>();
  for (let round = 0; round < 10; round += 1) {
    const at = now();
    const claims = await store.notices.claimDue(
      new Date(at).toISOString(),
      new Date(at + leaseMs).toISOString(),
      BATCH,
      options.only,
    );
    const fresh = claims.filter((claim) => !seen.has(claim.seq));
    for (const claim of claims) seen.add(claim.seq);
    // One at a time: a handful at most, to one mail server.
    for (const claim of fresh) await sendOne(store, mailer, claim, summary, { log, now, random });
    if (claims.length < BATCH || fresh.length < claims.length) break;
  }
  return summary;
}

async function sendOne(
  store: EnquiryStore,
  mailer: NoticeMailer,
  claim: NoticeClaim,
  summary: NoticeSummary,
  { log, now, random }: Required<Pick<NoticeOptions, "log" | "now" | "random">>,
): Promise<void> {
  const what = `operator notice ${claim.seq} ("${claim.subject}")`;
  let error: string | undefined;
  try {
    await mailer.send(claim);
  } catch (caught) {
    error = describe(caught);
  }
  const at = new Date(now()).toISOString();
  const next = error === undefined ? undefined : nextAttemptAt(claim.attempts + 1, now(), random);
  const nextAt = next === undefined ? undefined : new Date(next).toISOString();
  summary.attempts.push({
    seq: claim.seq,
    subject: claim.subject,
    ok: error === undefined,
    ...(error !== undefined && { error }),
    ...(nextAt && { nextAt }),
  });
  const recorded = await store.notices.recordAttempt(claim, {
    at,
    outcome: error === undefined ? "done" : "failed",
    ...(error !== undefined && { detail: error }),
    ...(nextAt && { nextAt }),
  });
  if (!recorded) {
    log.warn(`${what}: this attempt is not recorded: its claim ran out and another sender took the notice over`);
  }
  if (error === undefined) log.info(`${what}: the operator was e-mailed`);
  else if (nextAt) log.warn(`${what}: attempt ${claim.attempts + 1} failed (${error}); next at ${nextAt}`);
  else {
    log.error(
      `${what}: e-mailing the operator FAILED for good after ${MAX_ATTEMPTS} attempts over about three days ` +
        `(${error}); npm run enquiries -- status shows it, npm run enquiries -- retry sends it again`,
    );
  }
}
