/**
 * `enquiries retry [--channel email|webhook|all]` and `enquiries status`. Both say counts, ids and
 * times, never a visitor's address or words: cron keeps their output in logs and mails it on.
 */
import { missingMailSettings, type EnquiryConfig } from "../core/config";
import { createAlertMailer } from "../mail/alert-mail";
import { createMailer } from "../mail/mailer";
import { ALERT_AFTER_MS, checkAlerts, formatAge, type ChannelStatus } from "../outbox/alerts";
import { EMAIL } from "../outbox/email";
import { retryDestination, retryUndelivered } from "../outbox/retry";
import { webhookDestination } from "../outbox/webhook";
import type { EnquiryStore } from "../store/store";
import type { CliOutput } from "./cli-output";

export const CHANNELS = ["email", "webhook", "all"] as const;
const WEBHOOK = "webhook";

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
    io.err(`retry --channel is email, webhook or all (got "${channel}")`);
    return 2;
  }
  const log = { info: io.out, warn: io.err, error: io.err };
  const tallies: Tally[] = [];
  if (channel !== EMAIL) {
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
  if (channel !== WEBHOOK) {
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
  const configured = [...(createMailer(config) ? [EMAIL] : []), ...(config.webhook ? [WEBHOOK] : [])];
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
  io.out(failing.length > 0 ? `status: FAILING (${failing.join(", ")})` : "status: ok");
  return failing.length > 0 ? 1 : 0;
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
