/**
 * The receiver's settings. They come from the environment of the process that runs the receiver
 * (gatsby serve/develop, the CLI, the standalone server), never from the build. What concerns a
 * proxy in front is not here but at the edge (../../service/proxy.ts, ../../service/settings.ts).
 */
import path from "node:path";
import { ConfigError, findProjectRoot, flagSetting, positiveIntegerSetting, type Env } from "../../service/env";
import type { TransactionBounds } from "../store/engine";
import { MIGRATION_BOUNDS } from "../store/migrations";
import { replySettings, type ReplySettings } from "../mail/reply-settings";

export interface EnquiryConfig {
  /** Folder of the SQLite store (absolute), and of JSON-lines files of earlier versions to import. */
  dataDir: string;
  /** PostgreSQL instead of SQLite (several instances, function hosts). */
  databaseUrl: string | undefined;
  /** PostgreSQL connections per process (ENQUIRY_DATABASE_CONNECTIONS); a function instance uses 1. */
  databaseConnections: number;
  /**
   * Where the outbox also sends each enquiry, signed with the secret (../outbox/webhook.ts); both or
   * neither. previousSecret (ENQUIRY_WEBHOOK_SECRET_PREVIOUS): during a rotation, signed with it too.
   */
  webhook: { url: string; secret: string; previousSecret?: string } | undefined;
  smtpUrl: string | undefined;
  /** Recipient(s) of the e-mail, comma-separated as nodemailer accepts them. */
  to: string | undefined;
  /** Recipient(s) of the enquiries the spam screening flags, instead of `to`; unset: `to`. */
  suspectTo: string | undefined;
  from: string | undefined;
  rateLimit: number;
  rateWindowSeconds: number;
  /** The site's origin (SITE_URL): the inbox's links, its passkeys' relying party, its Origin check. */
  siteOrigin: string;
  /** Normalised origins (scheme://host[:port]) whose pages may post enquiries. */
  allowedOrigins: readonly string[];
  /** Answer only after the delivery attempt (hosts whose disk does not persist). */
  awaitDelivery: boolean;
  /** ENQUIRY_RETENTION_DAYS: enquiries older than this are purged daily by the service; unset: kept. */
  retentionDays: number | undefined;
  maxBodyBytes: number;
  /** Who is told when a webhook delivery fails for good (ENQUIRY_ALERT_TO; unset: `to`). */
  alertTo: string | undefined;
  /**
   * PostgreSQL: the migrations' bounds, ms (ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS, ENQUIRY_MIGRATION_TIMEOUT_SECONDS).
   */
  migrationBounds: TransactionBounds;
  /**
   * ENQUIRY_ERASURE_KEY: the key of the erasure log's keyed hashes (../store/erasure-log), so that a
   * backup put back forgets again whom erasure removed after it was made; unset: erasures are still
   * made and logged, but without a hash, and a restore cannot replay them (it says so).
   */
  erasureKey: string | undefined;
  /** ENQUIRY_PG_BIN: the folder of pg_dump and psql, for backup and restore on PostgreSQL; unset: PATH. */
  pgBin: string | undefined;
  /** The inbox's replies to visitors (ENQUIRY_REPLY_FROM and the rest: ../mail/reply-settings); unset: none. */
  replies: ReplySettings | undefined;
}

export const MAX_BODY_BYTES = 16 * 1024;
const DEFAULT_SITE_URL = "https://www.example.com";
const DEV_ORIGINS = ["http://localhost:9000", "http://localhost:8000"];

export function loadConfig(env: Env, projectRoot = findProjectRoot()): EnquiryConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  const to = value("ENQUIRY_TO");
  return {
    dataDir: path.resolve(projectRoot, value("ENQUIRY_DATA_DIR") ?? "var/enquiries"),
    databaseUrl: value("DATABASE_URL"),
    databaseConnections: positiveIntegerSetting(
      "ENQUIRY_DATABASE_CONNECTIONS",
      value("ENQUIRY_DATABASE_CONNECTIONS"),
      10,
    ),
    webhook: webhookSettings(
      value("ENQUIRY_WEBHOOK_URL"),
      value("ENQUIRY_WEBHOOK_SECRET"),
      value("ENQUIRY_WEBHOOK_SECRET_PREVIOUS"),
    ),
    smtpUrl: value("SMTP_URL"),
    to,
    suspectTo: value("ENQUIRY_SUSPECT_TO"),
    from: value("ENQUIRY_FROM") ?? (to ? `Cyrus website <${firstAddress(to)}>` : undefined),
    rateLimit: positiveIntegerSetting("ENQUIRY_RATE_LIMIT", value("ENQUIRY_RATE_LIMIT"), 5),
    rateWindowSeconds: positiveIntegerSetting("ENQUIRY_RATE_WINDOW_SECONDS", value("ENQUIRY_RATE_WINDOW_SECONDS"), 600),
    siteOrigin: originOf("SITE_URL", value("SITE_URL") ?? DEFAULT_SITE_URL),
    allowedOrigins: value("ENQUIRY_ALLOWED_ORIGINS")
      ? value("ENQUIRY_ALLOWED_ORIGINS")!
          .split(",")
          .map((o) => o.trim())
          .filter(Boolean)
          .map((o) => originOf("ENQUIRY_ALLOWED_ORIGINS", o))
      : [originOf("SITE_URL", value("SITE_URL") ?? DEFAULT_SITE_URL), ...DEV_ORIGINS],
    awaitDelivery: flagSetting("ENQUIRY_AWAIT_DELIVERY", value("ENQUIRY_AWAIT_DELIVERY")),
    retentionDays:
      value("ENQUIRY_RETENTION_DAYS") === undefined
        ? undefined
        : positiveIntegerSetting("ENQUIRY_RETENTION_DAYS", value("ENQUIRY_RETENTION_DAYS"), 0),
    maxBodyBytes: MAX_BODY_BYTES,
    alertTo: value("ENQUIRY_ALERT_TO") ?? to,
    migrationBounds: {
      lockTimeoutMs:
        1000 *
        positiveIntegerSetting(
          "ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS",
          value("ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS"),
          MIGRATION_BOUNDS.lockTimeoutMs / 1000,
        ),
      statementTimeoutMs:
        1000 *
        positiveIntegerSetting(
          "ENQUIRY_MIGRATION_TIMEOUT_SECONDS",
          value("ENQUIRY_MIGRATION_TIMEOUT_SECONDS"),
          MIGRATION_BOUNDS.statementTimeoutMs / 1000,
        ),
    },
    erasureKey: erasureKey(value("ENQUIRY_ERASURE_KEY")),
    pgBin: value("ENQUIRY_PG_BIN") && path.resolve(projectRoot, value("ENQUIRY_PG_BIN")!),
    replies: replySettings(value, projectRoot),
  };
}

/**
 * A secret of 32 characters or more without spaces (openssl rand -base64 32 gives 44): the keyed
 * hashes are only as hard to guess from an address as the key is.
 */
function erasureKey(key: string | undefined): string | undefined {
  if (key !== undefined && !/^\S{32,}$/.test(key)) {
    throw new ConfigError(
      "ENQUIRY_ERASURE_KEY must be 32 characters or more, without spaces (openssl rand -base64 32)",
    );
  }
  return key;
}

/** Which of the two mail settings are missing (none: e-mail delivery is on). */
export function missingMailSettings(config: EnquiryConfig): string[] {
  return [config.smtpUrl ? "" : "SMTP_URL", config.to ? "" : "ENQUIRY_TO"].filter(Boolean);
}

// The default sender is the first recipient: most SMTP services accept mail from their own domain only.
function firstAddress(list: string): string {
  const first = list.split(",")[0]!.trim();
  return first.match(/<([^>]+)>/)?.[1] ?? first;
}

function webhookSettings(
  url: string | undefined,
  secret: string | undefined,
  previousSecret: string | undefined,
): EnquiryConfig["webhook"] {
  if (!url && !secret) {
    if (previousSecret) throw new ConfigError("ENQUIRY_WEBHOOK_SECRET_PREVIOUS is set without the webhook");
    return undefined;
  }
  if (!url || !secret) throw new ConfigError("ENQUIRY_WEBHOOK_URL and ENQUIRY_WEBHOOK_SECRET are set together");
  originOf("ENQUIRY_WEBHOOK_URL", url);
  checkSecret("ENQUIRY_WEBHOOK_SECRET", secret);
  if (previousSecret) checkSecret("ENQUIRY_WEBHOOK_SECRET_PREVIOUS", previousSecret);
  return { url, secret, ...(previousSecret && { previousSecret }) };
}

// The Standard Webhooks form: whsec_ and the key in base64 (24 to 64 bytes).
function checkSecret(name: string, secret: string): void {
  const key = /^whsec_([A-Za-z0-9+/]+={0,2})$/.exec(secret)?.[1];
  const bytes = key ? Buffer.from(key, "base64").length : 0;
  if (bytes < 24 || bytes > 64) throw new ConfigError(`${name} must be whsec_ followed by 24 to 64 bytes in base64`);
}

function originOf(name: string, url: string): string {
  try {
    const { origin } = new URL(url);
    if (origin !== "null") return origin;
  } catch {
    // reported below
  }
  throw new ConfigError(`${name}: "${url}" is not an http(s) URL`);
}
