/**
 * The answer to the contact form posted by the browser itself (before or without JavaScript):
 * 303 See Other to the result page that shows the form's message for the outcome, so the visitor
 * lands on a page of the site, and a reload does not post again. Only a cross-site post keeps its
 * 403: it did not come from the site's form.
 */
import { formResultPath, type FormOutcome } from "../../../enquiry-contract/form-results";
import type { EnquiryConfig } from "./config";
import { header } from "../../service/headers";
import type { EnquiryRequest } from "./request-checks";
import { seeOther, type EnquiryResponse } from "./responses";

export function formAnswer(answer: EnquiryResponse, req: EnquiryRequest, config: EnquiryConfig): EnquiryResponse {
  if (answer.status === 403 || answer.status === 405) return answer;
  return seeOther(resultUrl(outcomeOf(answer), req, config));
}

function outcomeOf(answer: EnquiryResponse): FormOutcome {
  if (answer.status >= 200 && answer.status < 300) return "sent";
  if (answer.status === 400) {
    const body = JSON.parse(answer.body) as { error?: string; fields?: Record<string, string> };
    // Only empty required fields get the spec's "Please fill in all required fields."; any other
    // problem (an address the browser let through, a phone with letters) is the error message.
    const problems = Object.values(body.fields ?? {});
    if (body.error === "invalid_fields" && problems.length > 0 && problems.every((p) => p === "is required"))
      return "incomplete";
  }
  return "error";
}

/**
 * The result page on the site the form was posted from. The site's own receiver can answer with the
 * path; a receiver on another origin (GATSBY_ENQUIRY_API) must name the site, which the browser's
 * Origin header gives (and which the cross-site check has already allowed).
 */
function resultUrl(outcome: FormOutcome, req: EnquiryRequest, config: EnquiryConfig): string {
  const path = formResultPath(outcome);
  const origin = header(req.headers, "origin")?.trim();
  return origin && config.allowedOrigins.includes(origin) ? `${origin}${path}` : path;
}
