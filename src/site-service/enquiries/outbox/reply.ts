/**
 * The replies' destination: each reply from the inbox is a row of the outbox of channel 'reply'
 * (../store/reply-store), claimed, sent, retried on the schedule and recorded by the sender like
 * the e-mail and the webhook; its message id is the reply's id, by which it is read as its send
 * begins. `retry` re-sends them (--channel reply, or all), `status` counts them.
 */
import { createHash } from "node:crypto";
import { describe } from "../mail/deliver";
import type { ReplyMailer } from "../mail/reply-mail";
import { REPLY_CHANNEL } from "../store/reply-store";
import type { EnquiryStore } from "../store/store";
import type { Destination } from "./sender";

export const REPLY = REPLY_CHANNEL;

export function replyDestination(mailer: ReplyMailer, store: EnquiryStore): Destination {
  return {
    name: REPLY,
    // A mail server never answers 410: the hash only names the setting in the stopped table's key.
    settingHash: createHash("sha256").update(REPLY).digest("base64url"),
    describe: "SMTP, to the visitor",
    async send(enquiry, replyId) {
      try {
        const reply = await store.inbox.replies.toSend(replyId);
        if (!reply) return { ok: false, error: "the reply is gone (erased with its enquiry)" };
        const { messageId } = await mailer.send(enquiry, reply);
        return { ok: true, detail: messageId };
      } catch (error) {
        return { ok: false, error: describe(error) };
      }
    },
  };
}
