/**
 * No delivery dies in silence. A channel (the e-mail, the webhook) is failing when one of its
 * deliveries failed for good, or when the oldest enquiry it has not delivered is older than
 * ALERT_AFTER_MS, or (the webhook) when its endpoint answered 410 Gone and is stopped until the
 * setting names another. Then an incident is opened in the store, once for all instances, the Function,
 * `retry` and `status`: the log says so as an error, once, and for the webhook the operator is
 * e-mailed, once (an e-mail cannot report that e-mail is down: `npm run enquiries -- status` does,
 * for every channel, with its exit code). The incident ends when the channel has nothing failed or
 * being retried left; a later failure opens the next.
 */
import type { EnquiryConfig } from "../core/config";
import type { AlertMailer } from "../mail/alert-mail";
import { describe } from "../mail/deliver";
import type { ChannelBacklog, EnquiryStore } from "../store/store";
import { webhookDestination } from "./webhook";

/**
 * An hour: the schedule's first six attempts span about 43 minutes, so a delivery still not done
 * after an hour has failed five or six times in a row, not once by chance.
 */
export const ALERT_AFTER_MS = 60 * 60_000;

/** How often a service's sender looks (besides after a delivery failed for good). */
export const CHECK_INTERVAL_MS = 60_000;

/** Why a stopped channel is failing, whatever its backlog says. */
export const GONE = "its endpoint answered 410 Gone: nothing is sent there until ENQUIRY_WEBHOOK_URL changes";

export interface ChannelStatus extends ChannelBacklog {
  /** Why the channel is failing; undefined while it is not. */
  failing?: string;
  /** Nothing failed for good or being retried: an open incident ends. */
  clear: boolean;
}

/** `stopped`: the channels whose endpoint is gone (410) for their current setting. */
export function assess(
  backlog: readonly ChannelBacklog[],
  now: number,
  stopped: ReadonlySet<string> = new Set(),
): ChannelStatus[] {
  return backlog.map((b) => {
    const age = now - Date.parse(b.oldestReceivedAt);
    const failing = stopped.has(b.channel)
      ? GONE
      : b.failedForGood > 0
        ? `${b.failedForGood} failed for good`
        : age > ALERT_AFTER_MS
          ? `undelivered for ${formatAge(age)}`
          : undefined;
    return { ...b, ...(failing && { failing }), clear: !failing && b.failedForGood === 0 && b.retrying === 0 };
  });
}

async function stoppedChannels(ctx: AlertContext): Promise<Set<string>> {
  const { webhook } = ctx.config;
  if (!webhook) return new Set();
  const destination = webhookDestination(webhook);
  return (await ctx.store.isStopped(destination.name, destination.settingHash))
    ? new Set([destination.name])
    : new Set();
}

export interface AlertContext {
  store: EnquiryStore;
  config: Pick<EnquiryConfig, "webhook">;
  alertMailer: AlertMailer | undefined;
  log: Pick<Console, "info" | "warn" | "error">;
  now: () => number;
}

/** Opens, tells and closes incidents as the backlog says; resolves with each channel's status. */
export async function checkAlerts(ctx: AlertContext): Promise<ChannelStatus[]> {
  const { store, log } = ctx;
  const now = ctx.now();
  const at = new Date(now).toISOString();
  const statuses = assess(await store.backlog(), now, await stoppedChannels(ctx));
  for (const status of statuses) {
    if (!status.failing) continue;
    const { channel, waiting, failing } = status;
    if (await store.openAlert({ channel, reason: failing, waiting, openedAt: at })) {
      log.error(
        `ALERT: enquiry deliveries to the ${channel} are failing: ${waiting} waiting (${failing}); ` +
          `npm run enquiries -- retry --channel ${channel} re-sends them, npm run enquiries -- status shows the backlog` +
          (channel === "webhook" && !ctx.alertMailer
            ? " (no alert e-mail: SMTP_URL or ENQUIRY_ALERT_TO is not set)"
            : ""),
      );
    }
    if (channel === "webhook" && ctx.alertMailer) await tell(ctx, status, at);
  }
  for (const open of await store.openAlerts()) {
    const status = statuses.find((s) => s.channel === open.channel);
    if (status && !status.clear) continue;
    if (await store.closeAlert(open.channel, at)) {
      log.info(`enquiry deliveries to the ${open.channel}: the alert of ${open.openedAt} is over, nothing is failing`);
    }
  }
  return statuses;
}

/** The e-mail of the incident: sent by the one caller whose claim went in, claimed again if it failed. */
async function tell(ctx: AlertContext, status: ChannelStatus, at: string): Promise<void> {
  if (!(await ctx.store.claimTelling(status.channel, at))) return;
  const url = ctx.config.webhook?.url;
  try {
    await ctx.alertMailer!.send({
      channel: status.channel,
      destination: url ? new URL(url).host : "no longer set",
      waiting: status.waiting,
      failedForGood: status.failedForGood,
      ...(status.failing === GONE && { gone: true }),
      oldestReceivedAt: status.oldestReceivedAt,
      ...(status.lastError && { lastError: status.lastError }),
      where: ctx.store.where,
    });
    ctx.log.info(`enquiry alert: the operator was e-mailed that the ${status.channel} is failing`);
  } catch (error) {
    await ctx.store.unclaimTelling(status.channel);
    ctx.log.error(`enquiry alert: could not e-mail the operator (${describe(error)}); trying again later`);
  }
}

/** "3 h 5 min", "2 days 4 h": how long, for people. */
export function formatAge(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days} day${days === 1 ? "" : "s"} ${hours} h`;
  if (hours > 0) return `${hours} h ${minutes % 60} min`;
  return `${minutes} min`;
}
