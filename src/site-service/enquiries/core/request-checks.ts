/**
 * The checks that come before the fields: method, origin, media type, size and the body's syntax.
 * Each returns the refusal to send, or undefined when the request may go on.
 *
 * Two bodies are accepted: JSON (the form's own request once scripts run) and
 * application/x-www-form-urlencoded (the same form posted by the browser itself, before or without
 * JavaScript). Both go through the same checks, validation and storage.
 */
import type { EnquiryConfig } from "./config";
import { isCrossSite } from "./cross-site";
import { header, type RequestHeaders } from "../../service/headers";
import { answers, type EnquiryResponse } from "./responses";

export interface EnquiryRequest {
  method: string;
  headers: RequestHeaders;
  /** The body as received; an adapter that stopped reading past the limit passes what it has. */
  rawBody: Buffer;
  /** The client's address: the socket's peer, or what a trusted proxy in front said (../http/proxy.ts). */
  clientAddress: string;
  /** The host names it was addressed to, for the same-origin check; undefined: its Host header. */
  hosts?: ReadonlyArray<string | undefined>;
  /** Why it is too late to store it (a deadline the edge knows of, such as a proxy's), or undefined. */
  pastDeadline?: () => string | undefined;
  /** True once the client has gone (closed the connection): nobody would receive the answer. */
  clientGone?: () => boolean;
}

export type BodyKind = "json" | "form";

export function checkRequest(config: EnquiryConfig, req: EnquiryRequest): EnquiryResponse | undefined {
  if (req.method.toUpperCase() !== "POST") return answers.methodNotAllowed();
  if (isCrossSite(req.headers, config, req.hosts)) return answers.crossSite();
  if (!bodyKind(req.headers)) return answers.unsupportedMediaType();
  const declared = Number(header(req.headers, "content-length") ?? 0);
  if (req.rawBody.length > config.maxBodyBytes || declared > config.maxBodyBytes)
    return answers.tooLarge(config.maxBodyBytes);
  return undefined;
}

/**
 * application/json, or application/x-www-form-urlencoded, with no charset or UTF-8 (RFC 8259 allows
 * nothing else for JSON; a browser encodes a form in the page's charset, which is UTF-8).
 */
export function bodyKind(headers: RequestHeaders): BodyKind | undefined {
  const [type = "", ...params] = (header(headers, "content-type") ?? "").split(";").map((p) => p.trim().toLowerCase());
  const charset = params
    .find((p) => p.startsWith("charset="))
    ?.slice(8)
    .replace(/"/g, "");
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") return undefined;
  if (type === "application/json") return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  return undefined;
}

export type Parsed = { ok: true; value: Record<string, unknown> } | { ok: false; response: EnquiryResponse };

function decodeUtf8(raw: Buffer): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    return undefined;
  }
}

/**
 * A form body's fields as strings. A field sent twice is refused rather than guessed at; the
 * object has no prototype, so no name (such as "__proto__") reaches anything but its own value.
 */
export function parseFormObject(raw: Buffer): Parsed {
  const text = decodeUtf8(raw);
  if (text === undefined) return { ok: false, response: answers.invalidForm("it is not valid UTF-8") };
  const value: Record<string, unknown> = Object.create(null);
  for (const [name, field] of new URLSearchParams(text)) {
    if (Object.hasOwn(value, name))
      return { ok: false, response: answers.invalidForm(`the field "${name.slice(0, 40)}" is sent twice`) };
    // Browsers send a textarea's line breaks as CRLF in a form, as LF in the script's JSON: stored alike.
    value[name] = field.replace(/\r\n?/g, "\n");
  }
  return { ok: true, value };
}

/** Decodes strict UTF-8 and parses; only an object is a possible enquiry. */
export function parseJsonObject(raw: Buffer): Parsed {
  const text = decodeUtf8(raw);
  if (text === undefined) return { ok: false, response: answers.invalidJson("it is not valid UTF-8") };
  let value: unknown;
  try {
    // JSON.parse makes "__proto__" an ordinary own key, never the object's prototype.
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, response: answers.invalidJson((error as Error).message.replace(/\.$/, "")) };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      response: answers.invalidJson(
        `it is ${Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`}`,
      ),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
