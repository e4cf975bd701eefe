/**
 * The checks that come before the fields: method, origin, media type, size and JSON syntax.
 * Each returns the refusal to send, or undefined when the request may go on.
 */
import type { EnquiryConfig } from "./config";
import { isCrossSite } from "./cross-site";
import { header, type RequestHeaders } from "./headers";
import { answers, type EnquiryResponse } from "./responses";

export interface EnquiryRequest {
  method: string;
  headers: RequestHeaders;
  /** The body as received; an adapter that stopped reading past the limit passes what it has. */
  rawBody: Buffer;
  /** The socket's peer address (see clientKey for proxies). */
  clientAddress: string;
}

export function checkRequest(config: EnquiryConfig, req: EnquiryRequest): EnquiryResponse | undefined {
  if (req.method.toUpperCase() !== "POST") return answers.methodNotAllowed();
  if (isCrossSite(req.headers, config)) return answers.crossSite();
  if (!isJsonUtf8(header(req.headers, "content-type"))) return answers.unsupportedMediaType();
  const declared = Number(header(req.headers, "content-length") ?? 0);
  if (req.rawBody.length > config.maxBodyBytes || declared > config.maxBodyBytes) return answers.tooLarge(config.maxBodyBytes);
  return undefined;
}

// application/json, with no charset or UTF-8 (RFC 8259 allows nothing else).
function isJsonUtf8(contentType: string | undefined): boolean {
  const [type = "", ...params] = (contentType ?? "").split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") return false;
  const charset = params.find((p) => p.startsWith("charset="))?.slice(8).replace(/"/g, "");
  return charset === undefined || charset === "utf-8" || charset === "utf8";
}

export type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; response: EnquiryResponse };

/** Decodes strict UTF-8 and parses; only an object is a possible enquiry. */
export function parseJsonObject(raw: Buffer): Parsed {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return { ok: false, response: answers.invalidJson("it is not valid UTF-8") };
  }
  let value: unknown;
  try {
    // JSON.parse makes "__proto__" an ordinary own key, never the object's prototype.
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, response: answers.invalidJson((error as Error).message.replace(/\.$/, "")) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, response: answers.invalidJson(`it is ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}`) };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
