/**
 * The e-mail destination: the enquiry sent by the mailer (../mail/mailer) as one row of the outbox,
 * like the webhook, so that every instance's sender, `retry` anywhere and the Gatsby Function share
 * one claim on it (delivered at least once: see ./sender). Its attempts are also the enquiry's
 * delivery records (the `deliveries` table: `list`'s delivery column, and the duplicate rule of
 * ENQUIRY_AWAIT_DELIVERY).
 */
import { createHash } from "node:crypto";
import { describe } from "../mail/deliver";
import type { Mailer } from "../mail/mailer";
import type { Destination } from "./sender";

export const EMAIL = "email";

export function emailDestination(mailer: Mailer, to = ""): Destination {
  return {
    name: EMAIL,
    // A mail server never answers 410: the hash only names the setting in the stopped table's key.
    settingHash: createHash("sha256").update(to).digest("base64url"),
    describe: "SMTP",
    async send(enquiry) {
      try {
        const { messageId } = await mailer.send(enquiry);
        return { ok: true, detail: messageId };
      } catch (error) {
        return { ok: false, error: describe(error) };
      }
    },
  };
}
