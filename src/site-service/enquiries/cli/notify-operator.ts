/**
 * `enquiries notify-operator --subject <line>`: e-mails the text on stdin to the operator
 * (ENQUIRY_ALERT_TO, else ENQUIRY_TO) through SMTP_URL, as the outbox's alerts are sent
 * (../mail/alert-mail). cyrus-doctor.service runs it as the service's user when deploy/server/doctor
 * finds a problem, with doctor's lines as the text: the caller decides what goes in, and doctor's
 * lines hold nothing of any visitor's. The text is sent as plain text, printable characters only,
 * and at most MAX_BYTES of it.
 */
import type { Readable } from "node:stream";
import type { EnquiryConfig } from "../core/config";
import { describe } from "../mail/deliver";
import { smtpTransport } from "../mail/mailer";
import type { CliOutput } from "./cli-output";

export const MAX_BYTES = 64 * 1024;

/** The header a mail filter can sort these by. */
export const NOTICE_HEADER = "X-Operator-Notice";

async function readText(input: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of input) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    if (bytes < MAX_BYTES) chunks.push(buffer.subarray(0, MAX_BYTES - bytes));
    bytes += buffer.length;
  }
  // Control characters (a terminal's escapes) out; tabs become spaces, lines stay lines.
  const text = Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, " ")
    .replace(/[^\P{Cc}\n]/gu, "");
  return bytes > MAX_BYTES ? `${text}\n[… cut at ${MAX_BYTES / 1024} KiB]` : text;
}

export async function notifyOperator(
  config: EnquiryConfig,
  subject: string | undefined,
  io: CliOutput,
  stdin: Readable,
): Promise<number> {
  const line = subject?.replace(/[^\P{Cc}]/gu, " ").trim();
  if (!line || line.length > 200) {
    io.err("notify-operator needs --subject <one line of at most 200 characters>; the text comes on stdin");
    return 2;
  }
  const { smtpUrl, alertTo, from } = config;
  if (!smtpUrl || !alertTo) {
    io.err(
      `cannot e-mail the operator: ${[!smtpUrl && "SMTP_URL", !alertTo && "ENQUIRY_ALERT_TO (or ENQUIRY_TO)"]
        .filter(Boolean)
        .join(" and ")} not set in the service's settings`,
    );
    return 1;
  }
  const text = await readText(stdin);
  if (!text.trim()) {
    io.err("notify-operator: nothing on stdin to send");
    return 2;
  }
  try {
    await smtpTransport(smtpUrl).sendMail({
      from: from ?? alertTo,
      to: alertTo,
      subject: line,
      text: text.endsWith("\n") ? text : `${text}\n`,
      headers: { [NOTICE_HEADER]: "1" },
    });
  } catch (error) {
    io.err(`could not e-mail the operator (${describe(error)})`);
    return 1;
  }
  io.out("the operator was e-mailed (ENQUIRY_ALERT_TO, else ENQUIRY_TO)");
  return 0;
}
