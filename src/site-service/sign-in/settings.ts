/**
 * The settings of the studio's GitHub sign-in (./github.ts), from the service's environment:
 *
 *   GITHUB_OAUTH_CLIENT_ID, GITHUB_OAUTH_CLIENT_SECRET  the GitHub OAuth app's (both or neither; none:
 *                          the sign-in paths answer 404, the enquiry service runs as before)
 *   SITE_URL               the site's address: the studio's origin, which Decap compares the sign-in
 *                          window's messages with, and the origin of the callback GitHub returns to
 *   GITHUB_OAUTH_URL       GitHub's web address (https://github.com); a GitHub Enterprise server, or
 *                          the tests' local stand-in
 */
import { ConfigError, type Env } from "../service/env";

/**
 * Where the studio's sign-in window starts (Decap's `auth_endpoint`, under its `base_url`) and where GitHub returns.
 */
export const AUTHORIZE_PATH = "/oauth/authorize";
export const CALLBACK_PATH = "/oauth/callback";

export interface GitHubOAuthSettings {
  clientId: string;
  clientSecret: string;
  /** scheme://host[:port] of the site, without a path: Decap accepts messages from exactly this. */
  siteOrigin: string;
  /** The callback URL registered with the OAuth app, sent as it is (GitHub compares it). */
  redirectUri: string;
  /** GitHub's web origin, where /login/oauth/authorize and /login/oauth/access_token are. */
  githubUrl: string;
  /** The state cookie is Secure when the site is served over HTTPS. */
  secureCookie: boolean;
}

/** An https:// address, or http:// on this machine (the tests). */
function originSetting(name: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name}="${value}" is not an address`);
  }
  const local = url.protocol === "http:" && /^(localhost|127\.0\.0\.1|\[::1\])$/.test(url.hostname);
  if (url.protocol !== "https:" && !local) throw new ConfigError(`${name}="${value}" must be an https:// address`);
  return url;
}

/** The settings, or undefined when the GitHub sign-in is not set up (no client id or secret). */
export function loadGitHubOAuthSettings(env: Env): GitHubOAuthSettings | undefined {
  const value = (name: string) => env[name]?.trim() || undefined;
  const clientId = value("GITHUB_OAUTH_CLIENT_ID");
  const clientSecret = value("GITHUB_OAUTH_CLIENT_SECRET");
  if (!clientId && !clientSecret) return undefined;
  if (!clientId || !clientSecret) {
    throw new ConfigError("GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET go together (the GitHub OAuth app's)");
  }
  const siteUrl = value("SITE_URL");
  if (!siteUrl) {
    throw new ConfigError(
      "the GitHub sign-in needs SITE_URL, the site's address (https://www.example.com): the studio's origin",
    );
  }
  const site = originSetting("SITE_URL", siteUrl);
  const github = originSetting("GITHUB_OAUTH_URL", value("GITHUB_OAUTH_URL") ?? "https://github.com");
  return {
    clientId,
    clientSecret,
    siteOrigin: site.origin,
    redirectUri: `${site.origin}${CALLBACK_PATH}`,
    githubUrl: `${github.origin}${github.pathname.replace(/\/+$/, "")}`,
    secureCookie: site.protocol === "https:",
  };
}
