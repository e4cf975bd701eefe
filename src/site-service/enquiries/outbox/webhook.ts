/**
 * The webhook destination: the enquiry POSTed as JSON to ENQUIRY_WEBHOOK_URL, signed as the Standard
 * Webhooks specification says (https://www.standardwebhooks.com), so that the receiving end (a CRM's
 * endpoint, an automation service) can check it came from this site: `webhook-id` (the same on
 * every retry of one enquiry, to drop repeats), `webhook-timestamp` (seconds, the time of sending),
 * and `webhook-signature` `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed by the secret
 * (`whsec_<base64>`); during a rotation, a second `v1,…` keyed by the previous secret, separated by
 * a space, so that the receiving end accepts with either while it changes over. Any 2xx is done; 410 Gone stops the
 * destination; anything else, a timeout
 * (15 s) or a network error is tried again, after Retry-After when it says so.
 */
import { createHash, createHmac } from "node:crypto";
import { ENQUIRY_FIELD_NAMES } from "../../../enquiry-contract/enquiry-fields";
import type { StoredEnquiry } from "../store/store";
import { describe } from "../mail/deliver";
import { retryAfterMs } from "./schedule";
import type { Destination } from "./sender";

export interface WebhookSettings {
  url: string;
  /** whsec_ followed by the key in base64, as the specification's libraries take it. */
  secret: string;
  /** The secret being rotated away from: signed with too, until the setting is removed. */
  previousSecret?: string;
  timeoutMs?: number;
  /** The signature's clock: the time of sending, whatever clock schedules the retries. */
  wallClock?: () => number;
}

export function webhookDestination(settings: WebhookSettings): Destination {
  const keys = [settings.secret, settings.previousSecret]
    .filter((secret): secret is string => Boolean(secret))
    .map((secret) => Buffer.from(secret.replace(/^whsec_/, ""), "base64"));
  const wallClock = settings.wallClock ?? Date.now;
  return {
    name: "webhook",
    settingHash: createHash("sha256").update(settings.url).digest("base64url"),
    describe: new URL(settings.url).host,
    async send(enquiry, messageId) {
      const sentAt = wallClock();
      const timestamp = String(Math.floor(sentAt / 1000));
      const body = JSON.stringify(payload(enquiry));
      const signature = keys
        .map((key) => `v1,${createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64")}`)
        .join(" ");
      try {
        const res = await fetch(settings.url, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "webhook-id": messageId,
            "webhook-timestamp": timestamp,
            "webhook-signature": signature,
          },
          body,
          redirect: "manual",
          signal: AbortSignal.timeout(settings.timeoutMs ?? 15_000),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.status >= 200 && res.status < 300) return { ok: true, detail: `HTTP ${res.status}` };
        if (res.status === 410) return { ok: false, gone: true, error: "HTTP 410 Gone" };
        return {
          ok: false,
          error: `HTTP ${res.status}`,
          retryAfterMs: retryAfterMs(res.headers.get("retry-after"), sentAt),
        };
      } catch (error) {
        return { ok: false, error: describe((error as Error).cause ?? error) };
      }
    },
  };
}

/**
 * The enquiry as the webhook carries it: its id, time, every field of the definition, the
 * screening's verdict. The timestamp is when the event occurred (the enquiry arrived), the same on
 * every retry, as the specification has it; the time of sending is in webhook-timestamp.
 */
function payload(enquiry: StoredEnquiry): object {
  const fields = Object.fromEntries(ENQUIRY_FIELD_NAMES.map((name) => [name, enquiry[name]]));
  return {
    type: "enquiry.received",
    timestamp: enquiry.receivedAt,
    data: { id: enquiry.id, receivedAt: enquiry.receivedAt, ...fields, screening: enquiry.screening ?? null },
  };
}
