/**
 * Refuses requests that a page of another site makes a visitor's browser send. Browsers mark
 * them (Sec-Fetch-Site, Origin); clients without a browser send neither and are let through, since
 * nothing here depends on the caller's cookies.
 */
import type { EnquiryConfig } from "./config";
import { header, type RequestHeaders } from "../../service/headers";

/** hosts: what the request was addressed to; its Host header unless a trusted proxy said more. */
export function isCrossSite(
  headers: RequestHeaders,
  config: EnquiryConfig,
  hosts: ReadonlyArray<string | undefined> = [header(headers, "host")],
): boolean {
  if (header(headers, "sec-fetch-site")?.trim().toLowerCase() === "cross-site") return true;
  const origin = header(headers, "origin")?.trim();
  if (origin === undefined) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return true; // "null" (sandboxed frames, privacy redirects) or garbage
  }
  if (config.allowedOrigins.includes(url.origin)) return false;
  // Same origin as the request itself: the site's own page, whatever the host is called.
  return !hosts.some((host) => host !== undefined && sameHost(url, host));
}

function sameHost(origin: URL, host: string): boolean {
  try {
    // Parsing with the origin's scheme drops a default port (":443") the Host header may carry.
    return new URL(`${origin.protocol}//${host.split(",")[0]!.trim()}`).host === origin.host;
  } catch {
    return false;
  }
}
