/**
 * The inbox's API as its page calls it, for tests that run the enquiry service: a client that sends
 * the Origin and X-Inbox a page of the site sends, enquiries to fill a store with, and a person
 * invited with the operator's command whose passkey (in software) signs them in.
 */
import { runEnquiriesCli } from "../../../src/site-service/enquiries/cli/cli";
import type { EnquiryStore, StoredEnquiry } from "../../../src/site-service/enquiries/store/store";
import { softwareAuthenticator, type SoftwareAuthenticator } from "./software-authenticator";

export const ORIGIN = "https://cyrus.example";
export const NOW = Date.parse("2026-11-20T09:00:00Z");

export interface Reply {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
  text: string;
}

export type Call = (
  method: string,
  path: string,
  options?: { cookie?: string; body?: unknown; origin?: string | null; xInbox?: string | null },
) => Promise<Reply>;

export function client(port: number): Call {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    if (options.origin !== null) headers.origin = options.origin ?? ORIGIN;
    if (options.xInbox !== null) headers["x-inbox"] = options.xInbox ?? "1";
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON (CSV) */
    }
    return { status: res.status, headers: res.headers, json, text };
  };
}

export const enquiry = (n: number, extra: Partial<StoredEnquiry> = {}): StoredEnquiry => ({
  id: `enq-${String(n).padStart(3, "0")}`,
  receivedAt: new Date(NOW - (100 - n) * 60_000).toISOString(),
  name: `Person ${n}`,
  phone: "",
  email: `person${n}@sponsor${n % 3}.example`,
  message: `A phase ${n % 4} study, enquiry number ${n}.`,
  screening: { verdict: "clean", signals: [] },
  delivery: "pending",
  ...extra,
});

export async function fill(store: EnquiryStore, count = 12): Promise<void> {
  for (let n = 1; n <= count; n += 1) {
    const e = enquiry(n);
    await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
      { destination: "email", messageId: `msg_${e.id}` },
    ]);
  }
}

export interface Signed {
  id: number;
  cookie: string;
  authenticator: SoftwareAuthenticator;
}

/** Invites with `enquiries -- invite`, creates the passkey through `call`: the person, signed in. */
export async function invited(
  call: Call,
  env: Record<string, string | undefined>,
  email: string,
  name: string,
): Promise<Signed> {
  const out: string[] = [];
  const code = await runEnquiriesCli(
    ["invite", email, "--name", name],
    env,
    { out: (l) => out.push(l), err: () => undefined },
    () => NOW,
  );
  if (code !== 0) throw new Error(`invite ${email} exited ${code}`);
  const token = out[1]!.split("#")[1]!;
  const options = await call("POST", "/inbox/api/session/welcome-options", { body: { token } });
  const authenticator = softwareAuthenticator();
  const creation = (options.json as { options: { challenge: string; rp: { id: string } } }).options;
  const registered = await call("POST", "/inbox/api/session/welcome", {
    body: { token, response: authenticator.register(creation, ORIGIN) },
  });
  if (registered.status !== 200) throw new Error(`the passkey of ${email} was refused: ${registered.text}`);
  const cookie = (registered.headers.get("set-cookie") ?? "").split(";")[0]!;
  const me = await call("GET", "/inbox/api/me", { cookie });
  return { id: (me.json.person as { id: number }).id, cookie, authenticator };
}

/** Polls `found` every 50 ms for at most `ms`; its last value. */
export async function until<T>(found: () => T | undefined | false, ms = 10_000): Promise<T | undefined | false> {
  const deadline = Date.now() + ms;
  for (let value = found(); ; value = found()) {
    if (value || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
