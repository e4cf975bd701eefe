/**
 * What `status` and the alerts read and write: the outbox's backlog per channel, and the `alerts`
 * table, one open row per failing channel (the incident). Opening one is an insert the unique index
 * lets through once, and telling a person of it is claimed by an update, so that of all the
 * instances, the Function, `retry` and `status`, one tells.
 */
import { isoTime, type Engine } from "./engine";

/** A channel's (an outbox destination's) deliveries not done. */
export interface ChannelBacklog {
  channel: string;
  /** Rows not delivered: due, retrying, failed for good. */
  waiting: number;
  /** Of those, tried at least once and to be tried again (a 410's rows too). */
  retrying: number;
  failedForGood: number;
  /** When the oldest enquiry of those was received (the replies' channel: the oldest reply was written). */
  oldestReceivedAt: string;
  /** The last failed attempt's error (a status, a mail server's answer: nothing of the visitor's). */
  lastError?: string;
}

export interface OpenAlert {
  channel: string;
  reason: string;
  waiting: number;
  openedAt: string;
  /** When a person was told by e-mail (the webhook's alerts), if yet. */
  toldAt?: string;
}

export async function channelBacklog(db: Engine): Promise<ChannelBacklog[]> {
  const rows = await db.all<{
    destination: string;
    waiting: unknown;
    retrying: unknown;
    failed: unknown;
    oldest: unknown;
  }>(
    `SELECT coalesce(o.channel, o.destination) AS destination, COUNT(*) AS waiting,
       SUM(CASE WHEN o.state = 'due' AND o.attempts > 0 THEN 1 ELSE 0 END) AS retrying,
       SUM(CASE WHEN o.state = 'failed' THEN 1 ELSE 0 END) AS failed,
       MIN(coalesce(r.at, e.received_at)) AS oldest
     FROM outbox o JOIN enquiries e ON e.id = o.enquiry_id
       LEFT JOIN replies r ON o.channel = 'reply' AND r.id = o.message_id
     WHERE o.state <> 'done' GROUP BY coalesce(o.channel, o.destination) ORDER BY 1`,
  );
  const backlog: ChannelBacklog[] = [];
  for (const row of rows) {
    const [last] = await db.all<{ detail: string | null }>(
      `SELECT a.detail FROM outbox_attempts a JOIN outbox o ON o.seq = a.outbox_seq
       WHERE coalesce(o.channel, o.destination) = $1 AND o.state <> 'done' AND a.outcome <> 'done'
       ORDER BY a.seq DESC LIMIT 1`,
      [row.destination],
    );
    backlog.push({
      channel: row.destination,
      waiting: Number(row.waiting),
      retrying: Number(row.retrying),
      failedForGood: Number(row.failed),
      oldestReceivedAt: isoTime(row.oldest),
      ...(last?.detail && { lastError: last.detail }),
    });
  }
  return backlog;
}

/** True when this call opened the channel's incident; false when one was open already. */
export function openAlert(db: Engine, alert: Omit<OpenAlert, "toldAt">): Promise<boolean> {
  return db.transaction(
    async (sql) =>
      (await sql.run(
        `INSERT INTO alerts (channel, reason, waiting, opened_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [alert.channel, alert.reason, alert.waiting, alert.openedAt],
      )) > 0,
  );
}

/** Claims the telling of the channel's open incident: true for the one caller that should send the e-mail. */
export async function claimTelling(db: Engine, channel: string, at: string): Promise<boolean> {
  const changed = await db.run(
    "UPDATE alerts SET told_at = $2 WHERE channel = $1 AND closed_at IS NULL AND told_at IS NULL",
    [channel, at],
  );
  return changed > 0;
}

/** The e-mail could not be sent: the next check tries again. */
export async function unclaimTelling(db: Engine, channel: string): Promise<void> {
  await db.run("UPDATE alerts SET told_at = NULL WHERE channel = $1 AND closed_at IS NULL", [channel]);
}

/** The channel delivers again: its incident is over. True when one was open. */
export async function closeAlert(db: Engine, channel: string, at: string): Promise<boolean> {
  return (await db.run("UPDATE alerts SET closed_at = $2 WHERE channel = $1 AND closed_at IS NULL", [channel, at])) > 0;
}

export async function openAlerts(db: Engine): Promise<OpenAlert[]> {
  const rows = await db.all<{
    channel: string;
    reason: string;
    waiting: unknown;
    opened_at: unknown;
    told_at: unknown;
  }>("SELECT channel, reason, waiting, opened_at, told_at FROM alerts WHERE closed_at IS NULL ORDER BY channel");
  return rows.map((r) => ({
    channel: r.channel,
    reason: r.reason,
    waiting: Number(r.waiting),
    openedAt: isoTime(r.opened_at),
    ...(r.told_at != null && { toldAt: isoTime(r.told_at) }),
  }));
}
