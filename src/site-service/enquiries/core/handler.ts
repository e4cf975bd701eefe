/**
 * One enquiry request, from raw bytes to answer. Framework-free and proxy-free: the request adapter
 * (../http/adapter.ts), shared by the Gatsby Function and the standalone service, turns an HTTP
 * request into an EnquiryRequest and sends back the answer.
 */
import { randomUUID } from "node:crypto";
import type { Enquiry } from "../../../enquiry-contract/enquiry-fields";
import type { Mailer } from "../mail/mailer";
import { screenEnquiry, type Screening } from "../screening/screen";
import type { SendSummary } from "../outbox/sender";
import type { DuplicateRule, EnquiryStore, OutboxEntry, StoredEnquiry } from "../store/store";
import { clientKey } from "./client-key";
import type { EnquiryConfig } from "./config";
import type { RecentEnquiries } from "./duplicates";
import { formAnswer } from "./form-answer";
import type { SlidingWindowLimiter } from "./rate-limit";
import { bodyKind, checkRequest, parseFormObject, parseJsonObject, type EnquiryRequest } from "./request-checks";
import { answers, type EnquiryResponse } from "./responses";
import { validateEnquiry } from "./validate";

export interface HandlerContext {
  config: EnquiryConfig;
  store: EnquiryStore;
  limiter: SlidingWindowLimiter;
  recent: RecentEnquiries;
  mailer: Mailer | undefined;
  /**
   * The outbox rows to store with an enquiry (the e-mail, the webhook), a pass of the sender (in
   * the background), and one enquiry's rows sent now (to answer after its e-mail).
   */
  outbox: {
    entriesFor(enquiryId: string): OutboxEntry[];
    sendDue(): Promise<unknown>;
    sendEnquiry(enquiryId: string, finalEmail: boolean): Promise<SendSummary | undefined>;
  };
  now: () => number;
  log: Pick<Console, "warn" | "error">;
}

/** JSON answers for the form's script; a browser's own form post is sent on to a result page. */
export async function handleEnquiry(ctx: HandlerContext, req: EnquiryRequest): Promise<EnquiryResponse> {
  const answer = await answerEnquiry(ctx, req);
  return bodyKind(req.headers) === "form" ? formAnswer(answer, req, ctx.config) : answer;
}

async function answerEnquiry(ctx: HandlerContext, req: EnquiryRequest): Promise<EnquiryResponse> {
  const refusal = checkRequest(ctx.config, req);
  if (refusal) return refusal;
  const parsed = bodyKind(req.headers) === "form" ? parseFormObject(req.rawBody) : parseJsonObject(req.rawBody);
  if (!parsed.ok) return parsed.response;
  const checked = validateEnquiry(parsed.value);
  if (!checked.ok) return answers.invalidFields(checked.fields);
  // Flagged, never refused: from here on a suspect enquiry goes the way of any other (duplicates,
  // rate limit, storage, delivery, answer); only its stored line and its e-mail say what was found.
  const screening = screenEnquiry(checked.enquiry, parsed.value);

  const claim = await ctx.recent.claim(checked.enquiry, ctx.now());
  if ("duplicateOf" in claim) return answers.duplicate(claim.duplicateOf);
  try {
    const outcome = await storeOnce(ctx, req, checked.enquiry, screening, claim.rule);
    if ("response" in outcome) return outcome.response;
    return await deliverAndAnswer(ctx, outcome.stored);
  } finally {
    claim.release();
  }
}

/** Stores the enquiry, unless its answer could no longer reach the visitor (or they may not send more). */
async function storeOnce(
  ctx: HandlerContext,
  req: EnquiryRequest,
  fields: Enquiry,
  screening: Screening,
  rule: DuplicateRule,
): Promise<{ stored: StoredEnquiry } | { response: EnquiryResponse }> {
  // Counted after validation: only enquiries that would be stored use up a client's allowance.
  const client = clientKey(req.clientAddress);
  const now = ctx.now();
  const slot = ctx.limiter.take(client, now);
  if (!slot.ok) return { response: answers.rateLimited(slot.retryAfterSeconds) };

  // A proxy in front gives up on the service after its own timeout and tells the visitor to try
  // again: past the deadline (below that timeout), or once the client has gone, storing would
  // make the visitor's resend a second copy.
  const tooLate =
    req.pastDeadline?.() ?? (req.clientGone?.() ? "the client closed the connection before it was stored" : undefined);
  if (tooLate !== undefined) {
    ctx.limiter.release(client, now);
    ctx.log.warn(`enquiry receiver: not stored: ${tooLate}`);
    return { response: answers.deadlineExceeded() };
  }

  const stored: StoredEnquiry = {
    id: randomUUID(),
    receivedAt: new Date(now).toISOString(),
    ...fields,
    screening,
    delivery: ctx.mailer ? "pending" : "stored-only",
  };
  let duplicateOf: string | undefined;
  try {
    ({ duplicateOf } = await ctx.store.add(stored, rule, ctx.outbox.entriesFor(stored.id)));
  } catch (error) {
    ctx.limiter.release(client, now);
    ctx.log.error(`enquiry receiver: could not store an enquiry in ${ctx.store.where}: ${(error as Error).message}`);
    return { response: answers.storageFailed() };
  }
  // Another instance (or process) stored the same enquiry since the claim looked.
  if (duplicateOf !== undefined) {
    ctx.limiter.release(client, now);
    return { response: answers.duplicate(duplicateOf) };
  }
  if (req.clientGone?.()) {
    ctx.log.warn(
      `enquiry ${stored.id}: stored, but the client had gone before the answer; a resend is recognised as this enquiry`,
    );
  }
  return { stored };
}

async function deliverAndAnswer(ctx: HandlerContext, enquiry: StoredEnquiry): Promise<EnquiryResponse> {
  if (ctx.mailer && ctx.config.awaitDelivery) {
    // Where the disk does not outlive the process, the e-mail is the only lasting copy: the
    // visitor is told of a failure so they can send again (and that copy is not retried).
    const sent = await ctx.outbox.sendEnquiry(enquiry.id, true);
    const email = sent?.attempts.find((a) => a.destination === "email" && a.enquiry.id === enquiry.id);
    if (email && !email.ok) return answers.deliveryFailed(enquiry.id);
  }
  // The rest in the background: what this process (or a function instance) cannot finish stays
  // due in the store, for the next pass of any instance or `npm run enquiries -- retry`.
  void ctx.outbox.sendDue();
  return answers.accepted(enquiry.id);
}
