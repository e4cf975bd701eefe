/**
 * The site's one server call (spec §7): POST {backend}/email with the enquiry as JSON: its fields and
 * the spam screening's honeypot key (empty for a person), nothing else.
 *
 * - {backend} is a build-time setting, GATSBY_ENQUIRY_API (Gatsby inlines GATSBY_* variables into the
 *   browser bundle), default the site's own receiver under /api. A trailing slash is tolerated.
 * - Success is any 2xx status. The answer's body is never read (the spec reads none of its fields), so a
 *   2xx with an empty or non-JSON body is still a success. Anything else rejects: a non-2xx answer (for
 *   example a proxy's HTML error page) or a network failure. No timeout, as in the spec.
 * - Anti-forgery: when an XSRF-TOKEN cookie exists, its value goes in the X-XSRF-TOKEN header, but only
 *   to an endpoint of the page's own origin. Like the original client (Angular's HttpClient skips
 *   absolute URLs), the token is never handed to another origin, where it would leak and where an
 *   unexpected header would make the CORS preflight fail.
 */
import { bodyOf, type Enquiry, type HoneypotFieldName } from "../../enquiry-contract/enquiry-fields";

export interface SendEnquiryOptions {
  /** Base address of the backend; default GATSBY_ENQUIRY_API or "/api". */
  endpoint?: string;
  fetchImpl?: typeof fetch;
}

export const DEFAULT_ENDPOINT = "/api";
export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "X-XSRF-TOKEN";

/** The configured backend base: written out literally so that Gatsby's build can inline it. */
export function configuredEndpoint(): string {
  return process.env.GATSBY_ENQUIRY_API || DEFAULT_ENDPOINT;
}

/** "/api", "/api/" and "https://backend.example.org/" all become "<base>/email". */
export function enquiryUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, "")}/email`;
}

/** The decoded value of a cookie, or undefined when it is absent or empty. */
export function readCookie(name: string, cookies: string = document.cookie): string | undefined {
  for (const pair of cookies.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const raw = pair.slice(at + 1).trim();
    if (!raw) return undefined;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

function isSameOrigin(url: string): boolean {
  return new URL(url, window.location.href).origin === window.location.origin;
}

/** Resolves on a 2xx answer; rejects on any other status, or with fetch's own error on a network failure. */
export async function sendEnquiry(
  enquiry: Enquiry & Partial<Record<HoneypotFieldName, string>>,
  options: SendEnquiryOptions = {},
): Promise<void> {
  const { endpoint = configuredEndpoint(), fetchImpl = fetch } = options;
  const url = enquiryUrl(endpoint);
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  const token = readCookie(XSRF_COOKIE);
  if (token !== undefined && isSameOrigin(url)) headers[XSRF_HEADER] = token;
  const response = await fetchImpl(url, {
    method: "POST",
    headers,
    // Exactly the definition's entries, in its order: nothing else the caller's object may hold.
    body: JSON.stringify(bodyOf((name) => enquiry[name] ?? "")),
  });
  // A plain Error (an Error subclass would ship Babel's wrapNativeSuper helper to every visitor).
  if (!response.ok) throw new Error(`The enquiry endpoint answered HTTP ${response.status}`);
}
