/**
 * The e-mail that carries a reply from the inbox to the visitor: plain text, the person's words and
 * then the visitor's message quoted; To the visitor's address (from the enquiry), From the company's
 * (ENQUIRY_REPLY_FROM), Reply-To ENQUIRY_REPLY_TO (unset: the From) so the visitor's answer reaches
 * the company; subject "Re: " and the notification's; In-Reply-To and References the Message-ID of
 * the notification the company received (as its delivery recorded it, else the one ./mailer gives
 * every notification now), so both mail programs thread it. Its own Message-ID is the reply's, the
 * same on every retry. DKIM-signed when ./reply-settings has a key.
 *
 * No header is written from anything with a line break in it: the name is flattened to one line,
 * an address that is not one plain ASCII address is refused before the reply is stored
 * (undeliverable), and nodemailer encodes what it writes.
 */
import type { SendMailOptions } from "nodemailer";
import type { EnquiryConfig } from "../core/config";
import type { ReplyToSend } from "../store/reply-store";
import type { StoredEnquiry } from "../store/store";
import { enquirySubject, messageDomain, notificationMessageId, singleLine, smtpTransport } from "./mailer";
import { PLAIN_ADDRESS, type ReplySettings } from "./reply-settings";

export interface ReplyMailer {
  send(enquiry: StoredEnquiry, reply: ReplyToSend): Promise<{ messageId: string }>;
}

/** Why replies cannot be sent, in a sentence; undefined when they can. */
export function repliesUnavailable(config: Pick<EnquiryConfig, "smtpUrl" | "replies">): string | undefined {
  const missing = [config.smtpUrl ? "" : "SMTP_URL", config.replies ? "" : "ENQUIRY_REPLY_FROM"].filter(Boolean);
  if (missing.length === 0) return undefined;
  return `Replies are not set up: the operator sets ${missing.join(" and ")} in the enquiry service's settings.`;
}

/** Why the visitor's address cannot be written to, in a sentence; undefined when it can. */
export function undeliverable(email: string): string | undefined {
  if (!email.trim()) return "The visitor gave no e-mail address: there is no one to send a reply to.";
  if (/[\r\n]/.test(email)) return "The visitor's e-mail address holds a line break: no reply is sent to it.";
  if (!PLAIN_ADDRESS.test(email))
    return "The visitor's e-mail address is not one this service can write to (one plain address, in ASCII).";
  return undefined;
}

export function replySubject(enquiry: Pick<StoredEnquiry, "name">): string {
  return `Re: ${enquirySubject(enquiry)}`;
}

/** A mailer over SMTP_URL with the reply settings, or undefined when replies are not set up. */
export function createReplyMailer(config: EnquiryConfig): ReplyMailer | undefined {
  const { smtpUrl, replies } = config;
  if (!smtpUrl || !replies) return undefined;
  const transport = smtpTransport(smtpUrl, replies.dkim);
  // The notification's Message-ID, when its delivery recorded none: the one ./mailer gave it.
  const notificationFrom = config.from ?? replies.from;
  return {
    async send(enquiry, reply) {
      const message = composeReply(enquiry, reply, replies, notificationFrom);
      const info = await transport.sendMail(message);
      return { messageId: String(info.messageId ?? message.messageId) };
    },
  };
}

export function composeReply(
  enquiry: StoredEnquiry,
  reply: ReplyToSend,
  settings: Pick<ReplySettings, "from" | "replyTo">,
  notificationFrom: string,
): SendMailOptions & { messageId: string } {
  const why = undeliverable(enquiry.email);
  // Checked before it was stored; an enquiry changed since (an import) is not sent to.
  if (why) throw new Error(why);
  const recorded = reply.notificationMessageId?.trim();
  const inReplyTo =
    recorded && /^<[^\s<>]+@[^\s<>]+>$/.test(recorded) ? recorded : notificationMessageId(enquiry.id, notificationFrom);
  return {
    from: settings.from,
    to: { name: singleLine(enquiry.name), address: enquiry.email },
    replyTo: settings.replyTo,
    subject: singleLine(reply.subject),
    messageId: `<reply-${reply.id}@${messageDomain(settings.from)}>`,
    inReplyTo,
    references: inReplyTo,
    date: new Date(reply.at),
    text: replyText(enquiry, reply.text),
  };
}

/** The person's words, then "On <date>, <name> wrote:" and the visitor's message, each line after "> ". */
export function replyText(enquiry: Pick<StoredEnquiry, "name" | "message" | "receivedAt">, text: string): string {
  const quoted = enquiry.message
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => (line ? `> ${line}` : ">"));
  return [
    text.replace(/\r\n?/g, "\n").trimEnd(),
    "",
    `On ${new Date(enquiry.receivedAt).toUTCString()}, ${singleLine(enquiry.name)} wrote:`,
    ...quoted,
  ].join("\n");
}
