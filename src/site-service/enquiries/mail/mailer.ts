/**
 * The e-mail that carries an enquiry to the company: plain text, Reply-To the visitor, so that
 * answering it in any mail program reaches them. Its body lists every field of the definition
 * (src/enquiry-contract/enquiry-fields.ts) under its caption; the subject and Reply-To use the
 * fields whose role they are, the visitor's name and address.
 *
 * An enquiry the spam screening flagged (../screening) is delivered all the same, marked: its
 * subject starts with "[Possible spam] ", an X-Enquiry-Screening header carries the verdict for
 * mail filters (clean ones carry "clean"), and the body opens with the signals found. With
 * ENQUIRY_SUSPECT_TO it goes to that address instead of ENQUIRY_TO.
 *
 * Its Message-ID is the enquiry's, <enquiry-<id>@<the From's domain>>, the same on every retry, so
 * that a reply from the inbox (./reply-mail) names the e-mail the company received: In-Reply-To.
 */
import { createTransport, type SendMailOptions } from "nodemailer";
import { ENQUIRY_FIELD_NAMES, fieldSpec } from "../../../enquiry-contract/enquiry-fields";
import { type EnquiryConfig } from "../core/config";
import { describeSignal } from "../screening/screen";
import type { StoredEnquiry } from "../store/store";

export interface Mailer {
  send(enquiry: StoredEnquiry): Promise<{ messageId: string }>;
}

/** A mailer over SMTP_URL, or undefined when mail is not configured. */
export function createMailer(config: EnquiryConfig): Mailer | undefined {
  const { smtpUrl, to, suspectTo, from } = config;
  if (!smtpUrl || !to) return undefined;
  const transport = smtpTransport(smtpUrl);
  return {
    async send(enquiry) {
      const recipients = isSuspect(enquiry) && suspectTo ? suspectTo : to;
      const info = await transport.sendMail(composeMessage(enquiry, recipients, from ?? to));
      return { messageId: String(info.messageId ?? "") };
    },
  };
}

/**
 * Bounded waits: a hung SMTP server must not hold a delivery (or `retry`) for nodemailer's
 * default minutes; a failed attempt is recorded and re-sent later.
 */
export function smtpTransport(url: string, dkim?: { domainName: string; keySelector: string; privateKey: string }) {
  return createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...(dkim && { dkim }),
  });
}

export const SUSPECT_SUBJECT_PREFIX = "[Possible spam] ";

const isSuspect = (enquiry: StoredEnquiry) => enquiry.screening?.verdict === "suspect";

export function composeMessage(enquiry: StoredEnquiry, to: string, from: string): SendMailOptions {
  const name = singleLine(enquiry.name);
  const suspect = isSuspect(enquiry);
  return {
    from,
    to,
    // The visitor's address is validated (no CR/LF); the name is flattened to one line, and
    // nodemailer encodes both, so neither can add a header. An address in another script would go
    // into the header as raw UTF-8, which SMTP servers without SMTPUTF8 reject, losing the whole
    // message: such an address is left to the body.
    replyTo: /^[\x21-\x7e]+$/.test(enquiry.email) ? { name, address: enquiry.email } : undefined,
    subject: `${suspect ? SUSPECT_SUBJECT_PREFIX : ""}${enquirySubject(enquiry)}`,
    messageId: notificationMessageId(enquiry.id, from),
    text: [
      ...(suspect ? suspectLines(enquiry) : []),
      ...fieldLines(enquiry),
      "",
      "--",
      `Enquiry ${enquiry.id}, received ${enquiry.receivedAt} through the website's contact form.`,
      ...(suspect ? [`Not spam? \`npm run enquiries -- not-spam ${enquiry.id}\` records it.`] : []),
    ].join("\n"),
    headers: {
      "X-Enquiry-Id": enquiry.id,
      ...(enquiry.screening && { "X-Enquiry-Screening": screeningHeader(enquiry.screening) }),
    },
  };
}

/** The notification's subject without the screening's mark: a reply's is "Re: " and this. */
export function enquirySubject(enquiry: Pick<StoredEnquiry, "name">): string {
  return `Website enquiry from ${singleLine(enquiry.name)}`;
}

/** The notification's Message-ID: from the enquiry's id and the domain of the address it is sent from. */
export function notificationMessageId(enquiryId: string, from: string): string {
  return `<enquiry-${enquiryId.replace(/[^A-Za-z0-9._-]/g, "-")}@${messageDomain(from)}>`;
}

/** The domain of "Name <address>" or an address, for Message-IDs; a placeholder when it has none usable. */
export function messageDomain(from: string): string {
  const address = /<([^>]*)>/.exec(from)?.[1] ?? from;
  const domain = address.split("@").pop()?.trim().toLowerCase() ?? "";
  return address.includes("@") && /^[a-z0-9.-]+$/.test(domain) ? domain : "enquiries.invalid";
}

/** "clean", or "suspect; signals=honeypot,url-in-name": one token per signal, for mail filters. */
function screeningHeader({ verdict, signals }: NonNullable<StoredEnquiry["screening"]>): string {
  return verdict === "suspect" ? `suspect; signals=${signals.join(",")}` : verdict;
}

/** What made the screening flag it, before the fields, so that it is read first. */
function suspectLines(enquiry: StoredEnquiry): string[] {
  return [
    "Possible spam: the website's screening flagged this enquiry. It is stored and delivered like any",
    "other, and the visitor was told it was sent. Read it before discarding it. What was found:",
    ...(enquiry.screening?.signals ?? []).map((signal) => `- ${signal}: ${describeSignal(signal)}`),
    "",
  ];
}

/**
 * One "Caption: value" line per one-line field, then each free text under its caption after a blank
 * line. A text field may hold line breaks (the form's input cannot, a script can): flattened, so
 * no line of the body pretends to be another field.
 */
function fieldLines(enquiry: StoredEnquiry): string[] {
  const lines: string[] = [];
  const blocks: string[] = [];
  for (const name of ENQUIRY_FIELD_NAMES) {
    const { kind, caption } = fieldSpec(name);
    const value = enquiry[name];
    if (kind === "multiline") blocks.push("", `${caption}:`, value);
    else lines.push(`${caption}: ${!value ? "(not given)" : kind === "text" ? singleLine(value) : value}`);
  }
  return [...lines, ...blocks];
}

/** Text for a header: control characters and line/paragraph separators become single spaces. */
export function singleLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029\s]+/gu, " ").trim();
}
