/**
 * The studio's GitHub sign-in, on the site's own origin (Decap's `base_url` is the site, its
 * `auth_endpoint` AUTHORIZE_PATH): GitHub's web application flow, with the client secret kept here.
 *
 *   GET /oauth/authorize?provider=github&scope=repo  sets a random `state` in a cookie of this browser
 *       and sends the window to GitHub with it and the registered callback URL;
 *   GET /oauth/callback?code=…&state=…  accepts the state only from the browser that started the
 *       sign-in (the cookie, compared in constant time, used once), exchanges the code for a token
 *       and answers the page that hands it to the studio (./callback-page.ts).
 *
 * The token is in that one answer only: it is never logged nor stored (the request log has the path
 * without its query; the lines here name the outcome only).
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import type { JsonLog } from "../service/json-log";
import { callbackPage, CALLBACK_CSP, type SignInResult } from "./callback-page";
import { AUTHORIZE_PATH, CALLBACK_PATH, type GitHubOAuthSettings } from "./settings";

/** Scopes the studio may ask for: Decap asks for repo (public_repo with open authoring). */
const SCOPES = new Set(["repo", "public_repo", "read:org", "read:user", "user:email"]);
/** How long a sign-in may take at GitHub (signing in there, two-factor code) before it must start again. */
const STATE_SECONDS = 600;
const EXCHANGE_TIMEOUT_MS = 10_000;

export interface OAuthRoutes {
  handles(path: string): boolean;
  handle(req: http.IncomingMessage, res: http.ServerResponse, path: string): Promise<void>;
}

/** The state cookie: __Host- (HTTPS, this host only, path /) so no sibling subdomain can plant one. */
function cookieName(settings: GitHubOAuthSettings): string {
  return settings.secureCookie ? "__Host-cyrus-oauth-state" : "cyrus-oauth-state";
}

function stateCookie(settings: GitHubOAuthSettings, value: string, maxAge: number): string {
  // SameSite=Lax: sent when GitHub sends the window back (a top-level GET), not with cross-site subrequests.
  return [
    `${cookieName(settings)}=${value}`,
    "Path=/",
    `Max-Age=${maxAge}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(settings.secureCookie ? ["Secure"] : []),
  ].join("; ");
}

function readCookie(req: http.IncomingMessage, name: string): string | undefined {
  for (const part of String(req.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

function sameState(expected: string | undefined, got: string | null): boolean {
  if (!expected || !got) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(got);
  return a.length === b.length && timingSafeEqual(a, b);
}

const PLAIN = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

export function githubOAuthRoutes(
  settings: GitHubOAuthSettings | undefined,
  log: JsonLog,
  fetchImpl: typeof fetch = fetch,
): OAuthRoutes {
  const paths = new Set([AUTHORIZE_PATH, CALLBACK_PATH]);

  const page = (res: http.ServerResponse, status: number, result: SignInResult, clear: boolean) => {
    const body = callbackPage(settings!.siteOrigin, result);
    res.writeHead(status, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": CALLBACK_CSP,
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "content-length": Buffer.byteLength(body),
      ...(clear ? { "set-cookie": stateCookie(settings!, "", 0) } : {}),
    });
    res.end(body);
  };

  const authorize = (res: http.ServerResponse, query: URLSearchParams, s: GitHubOAuthSettings) => {
    if (query.get("provider") !== "github") {
      res.writeHead(400, PLAIN).end("This server signs in with GitHub only (provider=github).\n");
      return;
    }
    const scopes = (query.get("scope") || "repo").split(/[\s,]+/).filter(Boolean);
    if (!scopes.every((scope) => SCOPES.has(scope))) {
      res.writeHead(400, PLAIN).end(`The studio may ask for these scopes only: ${[...SCOPES].join(", ")}.\n`);
      return;
    }
    const state = randomBytes(32).toString("base64url");
    const target = new URL(`${s.githubUrl}/login/oauth/authorize`);
    target.search = new URLSearchParams({
      client_id: s.clientId,
      redirect_uri: s.redirectUri,
      scope: scopes.join(" "),
      state,
    }).toString();
    res.writeHead(302, { location: target.href, "set-cookie": stateCookie(s, state, STATE_SECONDS), ...PLAIN });
    res.end();
  };

  /** The code for a token at GitHub; a failure is said in words the studio shows, without the code. */
  const exchange = async (s: GitHubOAuthSettings, code: string): Promise<SignInResult> => {
    let status = 0;
    try {
      const response = await fetchImpl(`${s.githubUrl}/login/oauth/access_token`, {
        method: "POST",
        headers: { accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          client_id: s.clientId,
          client_secret: s.clientSecret,
          code,
          redirect_uri: s.redirectUri,
        }).toString(),
        signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
      });
      status = response.status;
      const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      if (response.ok && typeof body.access_token === "string" && body.access_token) {
        log("info", "github sign-in", { outcome: "signed in" });
        return { ok: true, token: body.access_token };
      }
      const reason = typeof body.error === "string" ? body.error.slice(0, 60) : `HTTP ${status}`;
      log("warn", "github sign-in", { outcome: "code not exchanged", reason });
      return { ok: false, error: `GitHub did not accept the sign-in (${reason}). Please sign in again.` };
    } catch (error) {
      log("warn", "github sign-in", { outcome: "github unreachable", reason: (error as Error).name, status });
      return { ok: false, error: "GitHub could not be reached. Please try again in a moment." };
    }
  };

  const callback = async (req: http.IncomingMessage, res: http.ServerResponse, query: URLSearchParams) => {
    const s = settings!;
    // Used once, whatever happens: the cookie is cleared with this answer.
    if (!sameState(readCookie(req, cookieName(s)), query.get("state"))) {
      log("warn", "github sign-in", { outcome: "state refused" });
      page(res, 400, { ok: false, error: "this sign-in was not started here or has expired; start it again" }, true);
      return;
    }
    const denied = query.get("error");
    const code = query.get("code");
    if (denied || !code) {
      log("info", "github sign-in", { outcome: "not authorised", reason: (denied ?? "no code").slice(0, 60) });
      page(res, 400, { ok: false, error: "GitHub did not authorise the studio" }, true);
      return;
    }
    const result = await exchange(s, code);
    page(res, result.ok ? 200 : 502, result, true);
  };

  return {
    handles: (path) => paths.has(path),
    async handle(req, res, path) {
      if (!settings) {
        res.writeHead(404, PLAIN).end("GitHub sign-in is not set up on this server (GITHUB_OAUTH_CLIENT_ID).\n");
        return;
      }
      // GET only: a HEAD of the callback must not spend the code.
      if (req.method !== "GET") {
        res.writeHead(405, { ...PLAIN, allow: "GET" }).end("Use GET.\n");
        return;
      }
      const query = new URL(req.url ?? "/", "http://service.invalid").searchParams;
      if (path === AUTHORIZE_PATH) authorize(res, query, settings);
      else await callback(req, res, query);
    },
  };
}
