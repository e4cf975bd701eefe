/** The receiver's answers: JSON bodies with a stable `error` code and a sentence for people. */
import type { FieldErrors } from "./validate";

export interface EnquiryResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const COMMON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

export function json(status: number, body: object, headers: Record<string, string> = {}): EnquiryResponse {
  return { status, headers: { ...COMMON_HEADERS, ...headers }, body: JSON.stringify(body) };
}

const error = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  json(status, { error: code, message }, headers);

export const answers = {
  accepted: (id: string) => json(201, { ok: true, id }),
  /** The same enquiry again (a resend after an answer that never arrived): stored once, under its first id. */
  duplicate: (id: string) => json(200, { ok: true, id, duplicate: true }),
  methodNotAllowed: () => error(405, "method_not_allowed", "Send the enquiry with POST.", { allow: "POST" }),
  crossSite: () => error(403, "cross_site_request", "Enquiries are accepted from this site's own pages only."),
  unsupportedMediaType: () =>
    error(415, "unsupported_media_type", "Send the enquiry as JSON (Content-Type: application/json; charset UTF-8)."),
  tooLarge: (limit: number) => error(413, "payload_too_large", `The request body is larger than ${limit} bytes.`),
  invalidJson: (why: string) => error(400, "invalid_json", `The request body is not a JSON object: ${why}.`),
  invalidForm: (why: string) => error(400, "invalid_form", `The form data cannot be read: ${why}.`),
  invalidFields: (fields: FieldErrors) =>
    json(400, {
      error: "invalid_fields",
      message: `Check these fields: ${Object.entries(fields)
        .map(([field, problem]) => `${field} ${problem}`)
        .join("; ")}.`,
      fields,
    }),
  rateLimited: (retryAfterSeconds: number) =>
    error(429, "rate_limited", "Too many enquiries from this address; please try again later.", {
      "retry-after": String(retryAfterSeconds),
    }),
  requestTimeout: () => error(408, "request_timeout", "The request body did not arrive in time."),
  deadlineExceeded: () =>
    error(
      503,
      "deadline_exceeded",
      "The enquiry arrived too late to be answered in time and was not saved; please send it again.",
      {
        "retry-after": "5",
      },
    ),
  storageFailed: () => error(500, "storage_failed", "The enquiry could not be saved; please try again later."),
  deliveryFailed: (id: string) =>
    json(502, { error: "delivery_failed", message: "The enquiry could not be sent on; please try again later.", id }),
  misconfigured: () => error(500, "server_misconfigured", "The enquiry service is not configured correctly."),
  internalError: () => error(500, "internal_error", "Something went wrong; please try again later."),
};

/** 303 See Other to a page (a browser's form post lands there with a GET); a link for other clients. */
export function seeOther(location: string): EnquiryResponse {
  const href = location.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return {
    status: 303,
    headers: {
      location,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
    body: `<!doctype html><title>See Other</title><a href="${href}">${href}</a>\n`,
  };
}
