/**
 * The inbox's API, under /inbox/api/ in the enquiry service (no second server). Two kinds of route:
 *
 *   SIGN_IN_ROUTES  the passkey ceremonies (./passkeys): open to anyone, since they are how one
 *                   signs in; every failure counts against the client's failed sign-ins
 *   INBOX_ROUTES    everything else: without a valid session each answers 401 with the same JSON
 *                   and nothing else, whatever the path or method (an unknown path too)
 *
 * Every answer carries Cache-Control: no-store, X-Robots-Tag: noindex and Referrer-Policy:
 * no-referrer. Every request that changes something (any method but GET and HEAD) must come with
 * Origin equal to the site's origin (SITE_URL) and the header X-Inbox: 1, or gets 403: a form or a
 * page of another site cannot send either, so no request forged elsewhere acts under a session.
 *
 * All state is in the store (sessions, challenges, work), so any number of instances on one
 * PostgreSQL answer alike; only the failed sign-ins' limiter is per instance (as the enquiries' is).
 */
import type http from "node:http";
import type { EnquiryConfig } from "../core/config";
import type { EnquiryStore } from "../store/store";
import type { Person } from "../store/inbox-store";
import { clientKey } from "../core/client-key";
import { readBody } from "../http/read-body";
import { clientView, type ProxySettings } from "../../service/proxy";
import { header } from "../../service/headers";
import type { JsonLog } from "../../service/json-log";
import { hashSecret, newSecret, SESSION_LIMITS } from "./secrets";
import { createPasskeys, type Passkeys } from "./passkeys";
import { workRoutes } from "./work-routes";
import { replyRoutes, withReplies } from "./reply-routes";
import { createOwnerMailer, mailingOwners } from "./owner-mail";
import { type InboxAnswer, type Route, type SignInOutcome } from "./routes";

export const INBOX_PREFIX = "/inbox/api/";
export const SESSION_COOKIE = "__Host-inbox-session";
const MAX_BODY_BYTES = 64 * 1024;
/** Failed sign-ins a client may make in the window before it is told to wait. */
export const SIGN_IN_FAILURES = { limit: 10, windowMs: 15 * 60_000 };

export const INBOX_HEADERS = {
  "cache-control": "no-store",
  "x-robots-tag": "noindex",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

export interface InboxApiOptions {
  store: EnquiryStore;
  config: EnquiryConfig;
  proxy: () => ProxySettings;
  log: JsonLog;
  now?: () => number;
  /** The outbox's sender, asked for a pass when a reply is stored (the service's receiver). */
  sendDue?: () => unknown;
}

export interface InboxApi {
  handles(path: string): boolean;
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void>;
  /** Every route that needs a session (method, path with :params): for tests and docs. */
  routes: ReadonlyArray<Pick<Route, "method" | "path">>;
  signInRoutes: ReadonlyArray<Pick<Route, "method" | "path">>;
}

const UNAUTHORISED = { error: "unauthorised", message: "Sign in to the inbox." };

export function createInboxApi(options: InboxApiOptions): InboxApi {
  const { store, config, log } = options;
  const now = options.now ?? Date.now;
  const passkeys = createPasskeys(store, config.siteOrigin, now, log);
  const failures = new FailureLimiter(SIGN_IN_FAILURES.limit, SIGN_IN_FAILURES.windowMs);
  const routes: Route[] = [
    // /inbox/api/me (with the signature), replies, saved answers.
    ...replyRoutes(store, config, { sendDue: options.sendDue }),
    ...mailingOwners(
      withReplies(workRoutes(store), store, config),
      store,
      createOwnerMailer(config),
      config.siteOrigin,
      log,
    ),
  ];
  const signInRoutes = signInRoutesOf(passkeys);
  const match = <R extends Pick<Route, "method" | "path">>(list: R[], path: string) =>
    list.map((route) => ({ route, params: matchPath(route.path, path) })).filter((m) => m.params !== undefined);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void> {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://inbox");
    const send = (answer: InboxAnswer) => reply(res, answer, method === "HEAD");
    const changes = method !== "GET" && method !== "HEAD";
    const forged =
      changes && (header(req.headers, "origin") !== config.siteOrigin || header(req.headers, "x-inbox") !== "1");
    const refuse = () =>
      send({ status: 403, json: { error: "forbidden", message: "This request must come from the inbox's own page." } });

    // Signing in, out of a session.
    if (path.startsWith("/inbox/api/session/")) {
      if (forged) return refuse();
      const found = match(signInRoutes, path).find((m) => m.route.method === method);
      if (!found) return send({ status: 404, json: { error: "not_found", message: "No such route." } });
      const client = clientKey(clientView(req.socket.remoteAddress ?? "", req.headers, options.proxy()).clientAddress);
      const wait = failures.blocked(client, now());
      if (wait) {
        log("warn", "inbox sign-in refused: too many failures", { retryAfterSeconds: wait });
        return send({
          status: 429,
          json: { error: "too_many_failures", message: "Too many failed sign-ins: wait, then try again." },
          headers: { "retry-after": String(wait) },
        });
      }
      const body = await jsonBody(req);
      if (!body) return send({ status: 400, json: { error: "bad_request", message: "Send JSON." } });
      const outcome = await found.route.handle(body);
      if (!outcome.ok) {
        failures.fail(client, now());
        // Why, in a word: no address, no name, no credential id.
        log("warn", "inbox sign-in failed", { reason: outcome.reason });
        return send({ status: outcome.status, json: { error: outcome.reason, message: outcome.message } });
      }
      if (outcome.personId === undefined) return send({ status: 200, json: outcome.json });
      const sessionId = newSecret();
      // Revoked since the passkey was checked: no session (the store checks it as it starts one).
      if (!(await store.inbox.startSession(hashSecret(sessionId), outcome.personId, new Date(now()).toISOString()))) {
        failures.fail(client, now());
        log("warn", "inbox sign-in failed", { reason: "access_ended" });
        return send({ status: 401, json: { error: "access_ended", message: "Your access to the inbox has ended." } });
      }
      log("info", "inbox signed in", {});
      return send({ status: 200, json: outcome.json, headers: { "set-cookie": sessionCookie(sessionId) } });
    }

    const sessionId = cookie(header(req.headers, "cookie"), SESSION_COOKIE);
    const person = sessionId
      ? await store.inbox.session(hashSecret(sessionId), new Date(now()).toISOString(), SESSION_LIMITS)
      : undefined;
    if (!person) return send({ status: 401, json: UNAUTHORISED });
    if (forged) return refuse();

    if (path === "/inbox/api/sign-out") {
      if (method !== "POST")
        return send({ status: 405, json: { error: "method_not_allowed" }, headers: { allow: "POST" } });
      await store.inbox.endSession(hashSecret(sessionId!));
      return send({
        status: 200,
        json: { signedOut: true },
        headers: { "set-cookie": `${SESSION_COOKIE}=; ${COOKIE_FLAGS}; Max-Age=0` },
      });
    }
    const found = match(routes, path);
    if (found.length === 0) return send({ status: 404, json: { error: "not_found", message: "No such route." } });
    const chosen = found.find((m) => m.route.method === method || (method === "HEAD" && m.route.method === "GET"));
    if (!chosen) {
      const allow = found.map((m) => m.route.method).join(", ");
      return send({ status: 405, json: { error: "method_not_allowed", message: `Use ${allow}.` }, headers: { allow } });
    }
    const body = changes ? await jsonBody(req) : {};
    if (!body) return send({ status: 400, json: { error: "bad_request", message: "Send a JSON object." } });
    const answer = await chosen.route.handle({
      method,
      path,
      params: chosen.params!,
      query: url.searchParams,
      body,
      person,
      sessionHash: hashSecret(sessionId!),
      now,
    });
    return send(answer);
  }

  const allRoutes = [
    ...routes.map(({ method, path }) => ({ method, path })),
    { method: "POST" as const, path: "/inbox/api/sign-out" },
  ];
  return {
    handles: (path) => path === "/inbox/api" || path.startsWith(INBOX_PREFIX),
    handle: (req, res, path) =>
      handle(req, res, path).catch((error: Error) => {
        log("error", "inbox request failed", { error: error.name, message: error.message });
        if (!res.headersSent) reply(res, { status: 500, json: { error: "internal", message: "The inbox failed." } });
        else res.destroy();
      }),
    routes: allRoutes,
    signInRoutes: signInRoutes.map(({ method, path }) => ({ method, path })),
  };
}

export function publicPerson(person: Person) {
  return { id: person.id, name: person.name, email: person.email };
}

const COOKIE_FLAGS = "Path=/; Secure; HttpOnly; SameSite=Strict";

/** __Host-: the browser keeps it only if Secure, with Path=/ and no Domain, so no other host sets or reads it. */
function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; ${COOKIE_FLAGS}; Max-Age=${SESSION_LIMITS.maxMs / 1000}`;
}

function cookie(headerValue: string | undefined, name: string): string | undefined {
  for (const part of (headerValue ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=") || undefined;
  }
  return undefined;
}

interface SignInRoute {
  method: "POST";
  path: string;
  handle(body: Record<string, unknown>): Promise<SignInOutcome>;
}

function signInRoutesOf(passkeys: Passkeys): SignInRoute[] {
  return [
    { method: "POST", path: "/inbox/api/session/welcome-options", handle: (b) => passkeys.registrationOptions(b) },
    { method: "POST", path: "/inbox/api/session/welcome", handle: (b) => passkeys.register(b) },
    { method: "POST", path: "/inbox/api/session/sign-in-options", handle: () => passkeys.authenticationOptions() },
    { method: "POST", path: "/inbox/api/session/sign-in", handle: (b) => passkeys.authenticate(b) },
  ];
}

function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    if (part.startsWith(":")) {
      if (!got[i]) return undefined;
      params[part.slice(1)] = decodeURIComponent(got[i]!);
    } else if (part !== got[i]) return undefined;
  }
  return params;
}

async function jsonBody(req: http.IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const { body, complete } = await readBody(req, MAX_BODY_BYTES);
  if (!complete) return undefined;
  if (body.length === 0) return {};
  try {
    const value = JSON.parse(body.toString("utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function reply(res: http.ServerResponse, answer: InboxAnswer, headOnly = false): void {
  const text = "json" in answer ? JSON.stringify(answer.json) : answer.text;
  const type = "json" in answer ? "application/json; charset=utf-8" : answer.contentType;
  res.writeHead(answer.status, {
    ...INBOX_HEADERS,
    ...answer.headers,
    "content-type": type,
    "content-length": Buffer.byteLength(text),
  });
  res.end(headOnly ? undefined : text);
}

/** Failed sign-ins per client in a sliding window, in this instance's memory (bounded: swept as it goes). */
class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds to wait, or 0 when the client may try. */
  blocked(key: string, now: number): number {
    const recent = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (recent.length === 0) this.failures.delete(key);
    if (recent.length < this.limit) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
  }

  fail(key: string, now: number): void {
    const recent = (this.failures.get(key) ?? []).filter((t) => t > now - this.windowMs);
    recent.push(now);
    this.failures.set(key, recent.slice(-this.limit));
    if (this.failures.size > 10_000) {
      for (const [k, times] of this.failures) if (times.every((t) => t <= now - this.windowMs)) this.failures.delete(k);
    }
  }
}
