/**
 * Behind a reverse proxy (nginx in deploy/nginx), what the proxy says about a request, trusted
 * only when ENQUIRY_TRUST_PROXY=1 (a client can send these headers itself):
 *   X-Forwarded-For    the client's address: the last entry, the one the proxy appended
 *   X-Forwarded-Host   the host the browser addressed, for the same-origin check
 *   X-Request-Start    when the proxy received it ("t=<seconds>", nginx's $msec): past
 *                      ENQUIRY_DEADLINE_SECONDS the proxy has given up on the answer (its own timeout,
 *                      render.ts --api-timeout, is longer), so the receiver must not store it
 * The core knows nothing of proxies: the request adapter gives it the outcome of these.
 */
import { flagSetting, positiveIntegerSetting, type Env } from "./env";
import { header, type RequestHeaders } from "./headers";

export interface ProxySettings {
  trustProxy: boolean;
  /** Seconds after the proxy received a request past which it is no longer stored. */
  deadlineSeconds: number;
}

/** ENQUIRY_TRUST_PROXY (0) and ENQUIRY_DEADLINE_SECONDS (20); throws ConfigError on a wrong value. */
export function loadProxySettings(env: Env): ProxySettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  return {
    trustProxy: flagSetting("ENQUIRY_TRUST_PROXY", value("ENQUIRY_TRUST_PROXY")),
    deadlineSeconds: positiveIntegerSetting("ENQUIRY_DEADLINE_SECONDS", value("ENQUIRY_DEADLINE_SECONDS"), 20),
  };
}

/** Who sent a request and where to, as the adapter passes it to the core. */
export interface ClientView {
  clientAddress: string;
  /** Host names the request was addressed to (undefined: its Host header). */
  hosts?: ReadonlyArray<string | undefined>;
  /** Why it is too late to store it (the proxy's deadline has passed), or undefined. */
  pastDeadline?: () => string | undefined;
}

/** The socket's peer alone, or, behind a trusted proxy, what the proxy's headers say. */
export function clientView(socketAddress: string, headers: RequestHeaders, proxy?: ProxySettings): ClientView {
  if (!proxy?.trustProxy) return { clientAddress: socketAddress };
  return {
    clientAddress: forwardedClient(socketAddress, headers),
    hosts: [header(headers, "host"), header(headers, "x-forwarded-host")],
    pastDeadline: () => pastDeadline(headers, proxy.deadlineSeconds, Date.now()),
  };
}

/** The address the proxy appended last to X-Forwarded-For: earlier entries come from the client and can be forged. */
export function forwardedClient(socketAddress: string, headers: RequestHeaders): string {
  const forwarded = header(headers, "x-forwarded-for")
    ?.split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  return forwarded?.at(-1) ?? socketAddress;
}

/**
 * How the request is past its deadline, counted from the time the proxy received it, or undefined
 * when it is in time or the proxy did not say when that was.
 */
export function pastDeadline(headers: RequestHeaders, deadlineSeconds: number, now: number): string | undefined {
  const start = header(headers, "x-request-start")?.match(/^\s*t=(\d{9,11}(?:\.\d{1,6})?)\s*$/)?.[1];
  if (!start) return undefined;
  const elapsed = now - Number(start) * 1000;
  if (elapsed <= deadlineSeconds * 1000) return undefined;
  return `it reached the receiver ${Math.round(elapsed / 100) / 10} s after the proxy received it (deadline ${deadlineSeconds} s)`;
}
