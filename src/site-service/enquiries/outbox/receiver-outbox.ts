/**
 * The outbox as a receiver uses it: the rows to write with each enquiry (one per destination the
 * settings name: the e-mail, the webhook), and a sender that runs one pass at a time, again if
 * asked meanwhile, and after it looks whether a channel is failing (./alerts): after a delivery
 * failed for good, else at most once a minute. Each pass also sends the operator's notices that are
 * due (./operator-notices): the ones `notify-operator` stored when the mail server did not take them.
 */
import { type EnquiryConfig } from "../core/config";
import { createAlertMailer } from "../mail/alert-mail";
import { createReplyMailer } from "../mail/reply-mail";
import type { Mailer } from "../mail/mailer";
import type { EnquiryStore, OutboxEntry } from "../store/store";
import { CHECK_INTERVAL_MS, checkAlerts } from "./alerts";
import { EMAIL, emailDestination } from "./email";
import { createNoticeMailer, sendDueNotices } from "./operator-notices";
import { replyDestination } from "./reply";
import { createSender, type Destination, type SendSummary } from "./sender";
import { webhookDestination } from "./webhook";

export interface OutboxOptions {
  /** The schedule's clock and jitter, and the webhook's timeout (tests). */
  now?: () => number;
  random?: () => number;
  webhookTimeoutMs?: number;
}

export interface ReceiverOutbox {
  destinations: Destination[];
  entriesFor(enquiryId: string): OutboxEntry[];
  /** One pass over the due rows; a call during a pass makes one more pass after it. */
  sendDue(): Promise<SendSummary | undefined>;
  /** One enquiry's due rows, now (ENQUIRY_AWAIT_DELIVERY, finalEmail: a failed e-mail is not retried). */
  sendEnquiry(enquiryId: string, finalEmail: boolean): Promise<SendSummary | undefined>;
}

export function receiverOutbox(
  config: EnquiryConfig,
  store: EnquiryStore,
  mailer: Mailer | undefined,
  log: Pick<Console, "info" | "warn" | "error">,
  options: OutboxOptions = {},
): ReceiverOutbox {
  // Each enquiry's: a row of each written with it. The inbox's replies have rows of their own.
  const perEnquiry: Destination[] = [
    ...(mailer ? [emailDestination(mailer, config.to)] : []),
    ...(config.webhook ? [webhookDestination({ ...config.webhook, timeoutMs: options.webhookTimeoutMs })] : []),
  ];
  const replyMailer = createReplyMailer(config);
  const destinations = [...perEnquiry, ...(replyMailer ? [replyDestination(replyMailer, store)] : [])];
  const sender = createSender({ store, destinations, log, now: options.now, random: options.random });
  const now = options.now ?? Date.now;
  const alerts = { store, config, alertMailer: createAlertMailer(config), log, now };
  const noticeMailer = createNoticeMailer(config);
  const sendNotices = async () => {
    if (!noticeMailer) return;
    await sendDueNotices(store, noticeMailer, { log, now, random: options.random }).catch((error: Error) =>
      log.warn(`operator notices: cannot send: ${error.message}`),
    );
  };
  let checkedAt: number | undefined;
  const lookForFailures = async (summary: SendSummary | undefined) => {
    if (!summary?.failed && !summary?.stopped && checkedAt !== undefined && now() - checkedAt < CHECK_INTERVAL_MS)
      return;
    checkedAt = now();
    await checkAlerts(alerts).catch((error: Error) => log.warn(`enquiry alerts: cannot check: ${error.message}`));
  };
  let running: Promise<SendSummary | undefined> | undefined;
  let again = false;
  return {
    destinations,
    // The message id is the enquiry's: the same on every retry, from whichever instance sends it.
    entriesFor: (enquiryId) => perEnquiry.map((d) => ({ destination: d.name, messageId: `msg_${enquiryId}` })),
    sendEnquiry: (enquiryId, finalEmail) =>
      destinations.length === 0
        ? Promise.resolve(undefined)
        : sender.sendDue({ enquiryId, finalFor: finalEmail ? EMAIL : undefined }),
    sendDue() {
      if (destinations.length === 0 && !noticeMailer) return Promise.resolve(undefined);
      if (running) {
        again = true;
        return running;
      }
      // A call while the alerts are looked at must still get its pass, so that look is inside the
      // loop; and `running` is cleared in the same turn as the last look at `again`, leaving no gap
      // in which a call would be folded into a pass that has already ended (an enquiry left unsent).
      running = (async () => {
        try {
          let summary: SendSummary | undefined;
          do {
            again = false;
            summary = destinations.length > 0 ? await sender.sendDue() : undefined;
            await sendNotices();
            await lookForFailures(summary);
          } while (again);
          return summary;
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
  };
}
