/**
 * `enquiries retry [--channel email|webhook|reply|all]` and `enquiries status`. Both say counts, ids and
 * times, never a visitor's address or words: cron keeps their output in logs and mails it on. Both
 * take in the operator's notices kept in the store (../outbox/operator-notices): retry sends those
 * waiting or failed (with the e-mail: they go by e-mail), status shows them, and a notice failed for
 * good makes it fail as a delivery failed for good does.
 */
import { missingMailSettings, type EnquiryConfig } from "../core/config";
import { createAlertMailer } from "../mail/alert-mail";
import { createMailer } from "../mail/mailer";
import { createReplyMailer } from "../mail/reply-mail";
import { ALERT_AFTER_MS, checkAlerts, formatAge, type ChannelStatus } from "../outbox/alerts";
import { EMAIL } from "../outbox/email";
import { createNoticeMailer, sendDueNotices } from "../outbox/operator-notices";
import { REPLY } from "../outbox/reply";
import { retryDestination, retryUndelivered } from "../outbox/retry";
import { webhookDestination } from "../outbox/webhook";
import type { EnquiryStore } from "../store/store";
import type { CliOutput } from "./cli-output";
import { retryReplies } from "./retry-replies";

export const CHANNELS = ["email", "webhook", "reply", "all"] as const;
const WEBHOOK = "webhook";
/** The notices' line in retry's tally and status's list (not a channel of enquiries). */
const NOTICES = "operator notices";

interface Tally {
  channel: string;
  delivered: number;
  failing: number;
}

export async function retry(
  store: EnquiryStore,
  config: EnquiryConfig,
  channel: string,
  io: CliOutput,
  now: () => number,
): Promise<number> {
  if (!(CHANNELS as readonly string[]).includes(channel)) {
    io.err(`retry --channel is email, webhook, reply or all (got "${channel}")`);
    return 2;
  }
  const log = { info: io.out, warn: io.err, error: io.err };
  const tallies: Tally[] = [];
  if (channel === WEBHOOK || channel === "all") {
    if (config.webhook) {
      const destination = webhookDestination(config.webhook);
      if (await store.isStopped(WEBHOOK, destination.settingHash)) {
        io.err(
          "webhook: stopped: its endpoint answered 410 Gone; nothing is sent there until ENQUIRY_WEBHOOK_URL changes",
        );
        tallies.push({ channel: WEBHOOK, delivered: 0, failing: 1 });
      } else {
        const sent = await retryDestination(store, destination, now, log);
        for (const a of sent.attempts) {
          if (a.ok) io.out(`delivered  ${a.enquiry.id}  ${a.enquiry.receivedAt}  webhook`);
          else io.err(`failed     ${a.enquiry.id}  ${a.enquiry.receivedAt}  webhook: ${a.error ?? ""}`);
        }
        tallies.push({ channel: WEBHOOK, delivered: sent.done, failing: sent.attempts.length - sent.done });
      }
    } else if (channel === WEBHOOK) {
      io.err("cannot re-send to the webhook: ENQUIRY_WEBHOOK_URL and ENQUIRY_WEBHOOK_SECRET are not set");
      return 1;
    }
  }
  // The operator's notices go by e-mail, so with it (--channel email or all); first, so that a setting the
  // enquiries' e-mail lacks (ENQUIRY_TO) does not hold them back.
  const noticeMailer = channel === EMAIL || channel === "all" ? createNoticeMailer(config) : undefined;
  if (noticeMailer) {
    await store.notices.dueNow(new Date(now()).toISOString());
    const { attempts } = await sendDueNotices(store, noticeMailer, { log: { ...log, info: () => undefined }, now });
    for (const a of attempts) {
      if (a.ok) io.out(`delivered  notice ${a.seq}  operator notice`);
      else io.err(`failed     notice ${a.seq}  operator notice: ${a.error ?? ""}`);
    }
    const delivered = attempts.filter((a) => a.ok).length;
    if (attempts.length > 0) tallies.push({ channel: NOTICES, delivered, failing: attempts.length - delivered });
  }
  if (channel === EMAIL || channel === "all") {
    const mailer = createMailer(config);
    const missing = missingMailSettings(config);
    const why = `${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set`;
    if (mailer) {
      const { delivered, failed, skipped } = await retryUndelivered(store, mailer, now, log);
      delivered.forEach((e) => io.out(`delivered  ${e.id}  ${e.receivedAt}  email`));
      failed.forEach((e) => io.err(`failed     ${e.id}  ${e.receivedAt}  email: ${e.error}`));
      if (skipped.length > 0) {
        io.out(
          `${skipped.length} pending enquir${skipped.length === 1 ? "y" : "ies"} received in the last 2 minutes left alone (may still be under way); run retry again later`,
        );
      }
      tallies.push({ channel: EMAIL, delivered: delivered.length, failing: failed.length });
    } else if (channel === EMAIL || !config.webhook) {
      io.err(`cannot re-send: ${why}`);
      return 1;
    } else io.out(`email: not set up (${why}): nothing re-sent by e-mail`);
  }
  // The inbox's replies: with `all` only when they are set up.
  if (channel === REPLY || (channel === "all" && createReplyMailer(config))) {
    const replies = await retryReplies(store, config, io, now);
    if (typeof replies === "string") {
      io.err(replies);
      return 1;
    }
    tallies.push(replies);
  }
  // An incident whose deliveries this sent is over; one this found is opened (and told of) as anywhere.
  await checkAlerts({ store, config, alertMailer: createAlertMailer(config), log, now });
  const delivered = tallies.reduce((n, t) => n + t.delivered, 0);
  const failing = tallies.reduce((n, t) => n + t.failing, 0);
  const each =
    tallies.length > 1
      ? ` (${tallies.map((t) => `${t.channel}: ${t.delivered} delivered, ${t.failing} failing`).join("; ")})`
      : "";
  io.out(`retry: ${delivered} delivered, ${failing} still failing${each}`);
  return failing > 0 ? 1 : 0;
}

/** For cron or a monitor: each channel's backlog; exit code 1 while one is failing. */
export async function status(
  store: EnquiryStore,
  config: EnquiryConfig,
  io: CliOutput,
  now: () => number,
): Promise<number> {
  const statuses = await checkAlerts({
    store,
    config,
    alertMailer: createAlertMailer(config),
    log: { info: io.out, warn: io.err, error: io.err },
    now,
  });
  const alerts = await store.openAlerts();
  const configured = [
    ...(createMailer(config) ? [EMAIL] : []),
    ...(config.webhook ? [WEBHOOK] : []),
    ...(createReplyMailer(config) ? [REPLY] : []),
  ];
  const channels = [...new Set([...configured, ...statuses.map((s) => s.channel)])];
  io.out(`enquiry deliveries in ${store.where}, ${new Date(now()).toISOString().slice(0, 16).replace("T", " ")} UTC`);
  if (channels.length === 0)
    io.out("  no channel is set up (SMTP_URL and ENQUIRY_TO, or ENQUIRY_WEBHOOK_URL): stored only");
  for (const channel of channels) {
    const found = statuses.find((s) => s.channel === channel);
    const where = !configured.includes(channel) ? " (not set up now)" : "";
    io.out(`  ${channel}${where}: ${found ? describeBacklog(found, now()) : "ok, nothing waiting"}`);
    if (found?.lastError) io.out(`    last error: ${found.lastError}`);
    const alert = alerts.find((a) => a.channel === channel);
    if (alert) {
      io.out(`    alert open since ${alert.openedAt}${alert.toldAt ? `, operator e-mailed ${alert.toldAt}` : ""}`);
    }
    if (found?.failing) io.out(`    re-send: npm run enquiries -- retry --channel ${channel}`);
  }
  const failing = statuses.filter((s) => s.failing).map((s) => s.channel);
  if (await noticeStatus(store, config, io, now())) failing.push(NOTICES);
  io.out(failing.length > 0 ? `status: FAILING (${failing.join(", ")})` : "status: ok");
  return failing.length > 0 ? 1 : 0;
}

/** The operator's notices not sent, when there are any; true when one failed for good. */
async function noticeStatus(store: EnquiryStore, config: EnquiryConfig, io: CliOutput, now: number): Promise<boolean> {
  const notices = await store.notices.waiting();
  if (notices.length === 0) return false;
  const failed = notices.filter((n) => n.state === "failed").length;
  const retrying = notices.filter((n) => n.state === "due" && n.attempts > 0).length;
  const where = createNoticeMailer(config) ? "" : " (not set up now: SMTP_URL or ENQUIRY_ALERT_TO is not set)";
  const age = formatAge(now - Date.parse(notices[0]!.createdAt));
  io.out(
    `  ${NOTICES}${where}: ${failed > 0 ? "FAILING: " : ""}${notices.length} waiting` +
      (retrying > 0 ? `, ${retrying} being retried` : "") +
      (failed > 0 ? `, ${failed} failed for good` : "") +
      `; the oldest stored ${age} ago`,
  );
  for (const n of notices.slice(-5)) {
    const state = n.state === "failed" ? "failed for good" : `next attempt ${n.nextAt}`;
    io.out(`    notice ${n.seq} of ${n.createdAt}, ${n.attempts} attempt(s), ${state}: ${n.subject}`);
  }
  const lastError = [...notices].reverse().find((n) => n.lastError)?.lastError;
  if (lastError) io.out(`    last error: ${lastError}`);
  if (failed > 0) io.out("    re-send: npm run enquiries -- retry");
  return failed > 0;
}

function describeBacklog(s: ChannelStatus, now: number): string {
  const age = formatAge(now - Date.parse(s.oldestReceivedAt));
  const counts =
    `${s.waiting} waiting` +
    (s.retrying > 0 ? `, ${s.retrying} being retried` : "") +
    (s.failedForGood > 0 ? `, ${s.failedForGood} failed for good` : "");
  return s.failing
    ? `FAILING: ${counts}; the oldest received ${age} ago`
    : `${counts}; the oldest received ${age} ago (an alert after ${formatAge(ALERT_AFTER_MS)})`;
}
