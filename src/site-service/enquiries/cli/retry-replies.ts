/**
 * `retry --channel reply` (and `all`): the inbox's replies that wait or failed, sent now through the
 * outbox's claims like the other channels. Ids and times only: never the visitor's address or words.
 */
import type { EnquiryConfig } from "../core/config";
import { createReplyMailer, repliesUnavailable } from "../mail/reply-mail";
import { REPLY, replyDestination } from "../outbox/reply";
import { retryDestination } from "../outbox/retry";
import type { EnquiryStore } from "../store/store";
import type { CliOutput } from "./cli-output";

/** The tally of what was sent; a sentence (to print as an error) when replies are not set up. */
export async function retryReplies(
  store: EnquiryStore,
  config: EnquiryConfig,
  io: CliOutput,
  now: () => number,
): Promise<{ channel: string; delivered: number; failing: number } | string> {
  const mailer = createReplyMailer(config);
  if (!mailer) return `cannot re-send the inbox's replies: ${repliesUnavailable(config)}`;
  const log = { info: io.out, warn: io.err, error: io.err };
  const sent = await retryDestination(store, replyDestination(mailer, store), now, log);
  for (const a of sent.attempts) {
    if (a.ok) io.out(`delivered  ${a.enquiry.id}  ${a.enquiry.receivedAt}  reply`);
    else io.err(`failed     ${a.enquiry.id}  ${a.enquiry.receivedAt}  reply: ${a.error ?? ""}`);
  }
  return { channel: REPLY, delivered: sent.done, failing: sent.attempts.length - sent.done };
}
