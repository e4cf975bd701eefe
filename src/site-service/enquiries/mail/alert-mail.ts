/**
 * The e-mail that tells the operator (ENQUIRY_ALERT_TO, else ENQUIRY_TO) a channel is failing: which
 * channel, how many enquiries wait, since when, the last error, and the commands that re-send and
 * check. Counts and times only: nothing of any visitor's (it may be forwarded, or read by a
 * mail filter), not even an enquiry's id.
 */
import type { SendMailOptions } from "nodemailer";
import type { EnquiryConfig } from "../core/config";
import { smtpTransport } from "./mailer";

export interface AlertNotice {
  channel: string;
  /** Where the channel goes, without secrets (the webhook's host). */
  destination: string;
  waiting: number;
  failedForGood: number;
  /** The endpoint answered 410 Gone: nothing goes there until the setting names another. */
  gone?: boolean;
  oldestReceivedAt: string;
  lastError?: string;
  /** The store, for messages (never a password). */
  where: string;
}

export interface AlertMailer {
  send(notice: AlertNotice): Promise<void>;
}

/** Undefined when there is no mail server or no one to tell. */
export function createAlertMailer(config: EnquiryConfig): AlertMailer | undefined {
  const { smtpUrl, alertTo, from } = config;
  if (!smtpUrl || !alertTo) return undefined;
  const transport = smtpTransport(smtpUrl);
  return {
    async send(notice) {
      await transport.sendMail(composeAlert(notice, alertTo, from ?? alertTo));
    },
  };
}

export function composeAlert(notice: AlertNotice, to: string, from: string): SendMailOptions {
  const { channel, waiting } = notice;
  const enquiries = `${waiting} enquir${waiting === 1 ? "y" : "ies"}`;
  return {
    from,
    to,
    subject: `Website enquiries: ${channel} deliveries failing (${enquiries} waiting)`,
    text: [
      `Enquiries from the website's contact form are not reaching the ${channel} (${notice.destination}).`,
      "",
      `${enquiries} wait${waiting === 1 ? "s" : ""} to be sent there` +
        (notice.failedForGood > 0
          ? `; ${notice.failedForGood} of them failed for good, after every attempt of about three days.`
          : "."),
      ...(notice.gone
        ? [
            `The ${channel} answered 410 Gone: it says the address no longer exists. Nothing is sent there any more;`,
            "set ENQUIRY_WEBHOOK_URL to its new address and restart the service, and the enquiries go there.",
          ]
        : []),
      `The oldest has waited since ${notice.oldestReceivedAt.slice(0, 16).replace("T", " ")} UTC.`,
      ...(notice.lastError ? [`Last error: ${notice.lastError}`] : []),
      "",
      `They are kept in the enquiry store (${notice.where}). Once the ${channel} works again, send them with`,
      "",
      `  npm run enquiries -- retry --channel ${channel}`,
      "",
      "and check that nothing is left with",
      "",
      "  npm run enquiries -- status",
      "",
      "--",
      "This alert is sent once per incident: the next comes only after everything was delivered and",
      "something fails again.",
    ].join("\n"),
    headers: { "X-Enquiry-Alert": channel },
  };
}
