/**
 * `enquiries notify-operator --subject <line>`: e-mails the text on stdin to the operator
 * (ENQUIRY_ALERT_TO, else ENQUIRY_TO) through SMTP_URL, as the outbox's alerts are sent
 * (../mail/alert-mail). cyrus-doctor.service runs it as the service's user when deploy/server/doctor
 * finds a problem, with doctor's lines as the text: the caller decides what goes in, and doctor's
 * lines hold nothing of any visitor's. The text is sent as plain text, printable characters only,
 * and at most MAX_BYTES of it.
 *
 * The notice is stored first (../store/operator-notice-store), then sent at once from here (the
 * service may be the very thing that is down); when the mail server does not take it, it waits in
 * the store and is retried on the outbox's schedule by the service's sender and by `retry`
 * (../outbox/operator-notices). Exit code 0 once it is sent or stored; 1 when it is neither. A store
 * that cannot be reached (or a SQLite store not made yet: the service's to make) does not keep the
 * notice from being sent now, only from being retried.
 */
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import type { EnquiryConfig } from "../core/config";
import { describe } from "../mail/deliver";
import { createNoticeMailer, sendDueNotices, type Notice, type NoticeMailer } from "../outbox/operator-notices";
import { openStore } from "../store/open-store";
import { SQLITE_FILE } from "../store/sqlite-engine";
import type { CliOutput } from "./cli-output";

export { NOTICE_HEADER } from "../outbox/operator-notices";

export const MAX_BYTES = 64 * 1024;

const SENT = "the operator was e-mailed (ENQUIRY_ALERT_TO, else ENQUIRY_TO)";
/** What retries a stored notice, for the line that says it will be. */
const RETRIED_BY =
  "by the enquiry service's sender (cyrus-enquiry.service), or at once by npm run enquiries -- retry; " +
  "npm run enquiries -- status shows it";

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
  now: () => number = Date.now,
): Promise<number> {
  const line = subject?.replace(/[^\P{Cc}]/gu, " ").trim();
  if (!line || line.length > 200) {
    io.err("notify-operator needs --subject <one line of at most 200 characters>; the text comes on stdin");
    return 2;
  }
  const mailer = createNoticeMailer(config);
  if (!mailer) {
    const { smtpUrl, alertTo } = config;
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
  const notice = { subject: line, text };
  // Opening a SQLite store that is not there would make an empty one: the service's to make.
  const sqlite = path.join(config.dataDir, SQLITE_FILE);
  if (!config.databaseUrl && !fs.existsSync(sqlite)) {
    return sendUnstored(mailer, notice, `no store at ${sqlite}: the service makes it as it starts`, io);
  }
  const store = openStore(config, { connections: 1, log: { warn: io.err } });
  try {
    let stored: { seq: number; repeated: boolean };
    try {
      stored = await store.notices.add(notice.subject, notice.text, new Date(now()).toISOString());
    } catch (error) {
      return await sendUnstored(mailer, notice, `the store ${store.where}: ${describe(error)}`, io);
    }
    const log = { info: () => undefined, warn: () => undefined, error: io.err };
    const { attempts } = await sendDueNotices(store, mailer, { log, now, only: stored.seq });
    const attempt = attempts.find((a) => a.seq === stored.seq);
    const same = stored.repeated ? "the same notice was stored already and is still due: not stored again; " : "";
    if (attempt?.ok) io.out(`${SENT}${stored.repeated ? " (the same notice, stored earlier and still due)" : ""}`);
    else if (!attempt) {
      io.out(
        `${same}the notice is stored in ${store.where}; another sender holds it now, and it will be retried ` +
          `until sent, ${RETRIED_BY}`,
      );
    } else if (attempt.nextAt) {
      io.out(
        `could not e-mail the operator now (${attempt.error ?? ""}): ${same}the notice is stored in ${store.where} ` +
          `and will be retried on the outbox's schedule (next at ${attempt.nextAt}) ${RETRIED_BY}`,
      );
    } else {
      io.out(
        `could not e-mail the operator (${attempt.error ?? ""}): ${same}the notice is stored in ${store.where}, ` +
          "failed for good after every attempt: npm run enquiries -- retry sends it again",
      );
    }
    return 0;
  } catch (error) {
    // Stored, but the attempt could not be recorded (the store went away meanwhile): the row is
    // claimed for a while, then due again.
    io.out(`the notice is stored in ${store.where} and will be retried ${RETRIED_BY} (${describe(error)})`);
    return 0;
  } finally {
    await store.close().catch(() => undefined);
  }
}

/** The store cannot keep the notice: sent now or not at all. */
async function sendUnstored(mailer: NoticeMailer, notice: Notice, why: string, io: CliOutput): Promise<number> {
  try {
    await mailer.send(notice);
  } catch (error) {
    io.err(`could not e-mail the operator (${describe(error)}), nor store the notice to retry it (${why})`);
    return 1;
  }
  io.out(`${SENT}; the notice was not stored (${why})`);
  return 0;
}
