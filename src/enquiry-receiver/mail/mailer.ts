/**
 * The e-mail that carries an enquiry to the company: plain text, Reply-To the visitor, so that
 * answering it in any mail program reaches them.
 */
import { createTransport, type SendMailOptions } from "nodemailer";
import type { EnquiryConfig } from "../core/config";
import type { StoredEnquiry } from "../store/store";

export interface Mailer {
  send(enquiry: StoredEnquiry): Promise<{ messageId: string }>;
}

/** A mailer over SMTP_URL, or undefined when mail is not configured. */
export function createMailer(config: EnquiryConfig): Mailer | undefined {
  const { smtpUrl, to, from } = config;
  if (!smtpUrl || !to) return undefined;
  // Bounded waits: a hung SMTP server must not hold a delivery (or `retry`) for nodemailer's
  // default minutes; a failed attempt is recorded and re-sent later.
  const transport = createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(enquiry) {
      const info = await transport.sendMail(composeMessage(enquiry, to, from ?? to));
      return { messageId: String(info.messageId ?? "") };
    },
  };
}

export function composeMessage(enquiry: StoredEnquiry, to: string, from: string): SendMailOptions {
  const name = singleLine(enquiry.name);
  return {
    from,
    to,
    // The visitor's address is validated (no CR/LF); the name is flattened to one line, and
    // nodemailer encodes both, so neither can add a header. An address in another script would go
    // into the header as raw UTF-8, which SMTP servers without SMTPUTF8 reject, losing the whole
    // message: such an address is left to the body.
    replyTo: /^[\x21-\x7e]+$/.test(enquiry.email) ? { name, address: enquiry.email } : undefined,
    subject: `Website enquiry from ${name}`,
    text: [
      `Name: ${name}`,
      `Phone: ${enquiry.phone || "(not given)"}`,
      `E-mail: ${enquiry.email}`,
      "",
      "Message:",
      enquiry.message,
      "",
      "--",
      `Enquiry ${enquiry.id}, received ${enquiry.receivedAt} through the website's contact form.`,
    ].join("\n"),
    headers: { "X-Enquiry-Id": enquiry.id },
  };
}

/** Text for a header: control characters and line/paragraph separators become single spaces. */
export function singleLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029\s]+/gu, " ").trim();
}
