/**
 * One enquiry request, from raw bytes to answer. Framework-free: each server (the Gatsby
 * Function, node:http) only turns its request into an EnquiryRequest and sends back the answer.
 */
import { randomUUID } from "node:crypto";
import { clientKey } from "./client-key";
import type { EnquiryConfig } from "./config";
import type { Mailer } from "./mailer";
import type { SlidingWindowLimiter } from "./rate-limit";
import { checkRequest, parseJsonObject, type EnquiryRequest } from "./request-checks";
import { answers, type EnquiryResponse } from "./responses";
import type { DeliveryEvent, EnquiryStore, StoredEnquiry } from "./store";
import { validateEnquiry } from "./validate";

export interface HandlerContext {
  config: EnquiryConfig;
  store: EnquiryStore;
  limiter: SlidingWindowLimiter;
  mailer: Mailer | undefined;
  /** Starts delivery of a stored enquiry without the caller having to wait for it. */
  deliverLater: (enquiry: StoredEnquiry) => Promise<DeliveryEvent>;
  now: () => number;
  log: Pick<Console, "error">;
}

export async function handleEnquiry(ctx: HandlerContext, req: EnquiryRequest): Promise<EnquiryResponse> {
  const refusal = checkRequest(ctx.config, req);
  if (refusal) return refusal;
  const parsed = parseJsonObject(req.rawBody);
  if (!parsed.ok) return parsed.response;
  const checked = validateEnquiry(parsed.value);
  if (!checked.ok) return answers.invalidFields(checked.fields);

  // Counted after validation: only enquiries that would be stored use up a client's allowance.
  const client = clientKey(req.clientAddress, req.headers, ctx.config.trustProxy);
  const now = ctx.now();
  const slot = ctx.limiter.take(client, now);
  if (!slot.ok) return answers.rateLimited(slot.retryAfterSeconds);

  const { name, phone, email, message } = checked.enquiry;
  const enquiry: StoredEnquiry = {
    id: randomUUID(),
    receivedAt: new Date(now).toISOString(),
    name,
    phone,
    email,
    message,
    delivery: ctx.mailer ? "pending" : "stored-only",
  };
  try {
    await ctx.store.add(enquiry);
  } catch (error) {
    ctx.limiter.release(client, now);
    ctx.log.error(`enquiry receiver: could not store an enquiry in ${ctx.store.dir}: ${(error as Error).message}`);
    return answers.storageFailed();
  }

  if (ctx.mailer) {
    const delivery = ctx.deliverLater(enquiry);
    // Where the disk does not outlive the process, the e-mail is the only lasting copy: the
    // visitor is told of a failure so they can send again.
    if (ctx.config.awaitDelivery && (await delivery).delivery === "failed") return answers.deliveryFailed(enquiry.id);
  }
  return answers.accepted(enquiry.id);
}
