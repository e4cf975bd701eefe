/**
 * Where the studio reads and saves the content, from the environment of the build, and the
 * Content-Security-Policy that this needs. Plain data and functions: the build (build.ts), `npm run cms`
 * (cms.ts) and the tests use them; docs/editing-studio.md explains each setting.
 *
 *   CMS_BACKEND   github | gitlab | gitea (none: the studio says it is not set up)
 *   CMS_REPO      owner/name of the repository
 *   CMS_BRANCH    the branch the site is built from (main)
 *   CMS_BASE_URL  the OAuth service that signs editors in (GitHub: an OAuth proxy; GitLab, Gitea:
 *                 the instance, e.g. https://gitlab.com). GitHub without it: the site's own service
 *                 signs editors in when GITHUB_OAUTH_CLIENT_ID is set (its OAuth app; the secret stays
 *                 with the service), at SITE_URL's origin (src/site-service/sign-in/)
 *   CMS_AUTH_ENDPOINT  its path, when not the backend's default (auth, oauth/authorize, login/oauth/authorize)
 *   CMS_API_ROOT  the git host's API, for a self-hosted GitLab or Gitea (https://gitea.example.com/api/v1)
 *   CMS_APP_ID    GitLab and Gitea: the OAuth application's id (sign-in with PKCE, no proxy needed)
 *   CMS_REVIEW    1: review before going live (Decap's editorial workflow: drafts on branches)
 *   CMS_RELEASE_STATUS  1: the studio shows /admin/release-status.json (read by build.ts; the release sets it)
 */

export type BackendName = "github" | "gitlab" | "gitea";

/** Decap's `backend` setting (the part this project sets). */
export interface BackendConfig {
  name: BackendName | "proxy";
  repo?: string;
  branch?: string;
  base_url?: string;
  auth_endpoint?: string;
  api_root?: string;
  app_id?: string;
  auth_type?: "pkce";
  proxy_url?: string;
}

/** What the studio talks to, once set up; undefined when no git host is configured. */
export type Backend = BackendConfig | undefined;

const API_ROOTS: Record<BackendName, string | undefined> = {
  github: "https://api.github.com",
  gitlab: "https://gitlab.com/api/v4",
  gitea: undefined,
};

export class SettingsError extends Error {}

/** Where the site's own service starts the GitHub sign-in (src/site-service/sign-in/settings.ts). */
export const SITE_AUTH_ENDPOINT = "oauth/authorize";

/** The backend the environment describes, or undefined when CMS_BACKEND is not set. */
export function backendFromEnv(env: NodeJS.ProcessEnv = process.env): Backend {
  const value = (name: string) => env[name]?.trim() || undefined;
  const name = value("CMS_BACKEND");
  if (!name) return undefined;
  if (name !== "github" && name !== "gitlab" && name !== "gitea") {
    throw new SettingsError(`CMS_BACKEND="${name}" is not a git host the studio supports: use github, gitlab or gitea`);
  }
  const repo = value("CMS_REPO");
  if (!repo || !/^[\w.-]+(\/[\w.-]+)+$/.test(repo)) {
    throw new SettingsError(
      `CMS_BACKEND=${name} needs CMS_REPO, the repository as owner/name (found ${repo ?? "nothing"})`,
    );
  }
  const urls = ["CMS_BASE_URL", "CMS_API_ROOT"].map((key) => [key, value(key)] as const);
  for (const [key, url] of urls) {
    if (url && !/^https:\/\/[^\s/]+/.test(url) && !/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/.test(url)) {
      throw new SettingsError(`${key}="${url}" must be an https:// address`);
    }
  }
  const backend: BackendConfig = { name, repo, branch: value("CMS_BRANCH") ?? "main" };
  const baseUrl = value("CMS_BASE_URL");
  const apiRoot = value("CMS_API_ROOT");
  const appId = value("CMS_APP_ID");
  const authEndpoint = value("CMS_AUTH_ENDPOINT");
  if (baseUrl) backend.base_url = baseUrl.replace(/\/+$/, "");
  if (authEndpoint) backend.auth_endpoint = authEndpoint;
  if (apiRoot) backend.api_root = apiRoot.replace(/\/+$/, "");
  if (name === "github" && !baseUrl) {
    if (!value("GITHUB_OAUTH_CLIENT_ID")) {
      throw new SettingsError(
        "CMS_BACKEND=github needs GITHUB_OAUTH_CLIENT_ID (the site's own service signs editors in, docs/server-reference.md) or CMS_BASE_URL (an OAuth service elsewhere, docs/editing-studio.md)",
      );
    }
    // Decap takes the sign-in window's messages only from base_url exactly: the origin the studio is
    // served from, with no path.
    backend.base_url = siteOrigin(value("SITE_URL"));
    backend.auth_endpoint = authEndpoint ?? SITE_AUTH_ENDPOINT;
  }
  if (name !== "github") {
    if (!appId) throw new SettingsError(`CMS_BACKEND=${name} needs CMS_APP_ID, the id of its OAuth application`);
    backend.app_id = appId;
    backend.auth_type = "pkce";
  }
  if (name === "gitea" && !(apiRoot && baseUrl)) {
    throw new SettingsError("CMS_BACKEND=gitea needs CMS_BASE_URL (the Gitea address) and CMS_API_ROOT (its /api/v1)");
  }
  return backend;
}

/**
 * Review before going live (CMS_REVIEW=1): Decap's editorial workflow keeps each change on a branch
 * of its own (draft, in review, ready) until an editor publishes it, which merges it into the site's
 * branch. Decap offers it for GitHub, GitLab, Bitbucket and Forgejo, not for its gitea backend.
 */
export function reviewFromEnv(backend: Backend, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CMS_REVIEW?.trim();
  if (!value || value === "0") return false;
  if (value !== "1")
    throw new SettingsError(`CMS_REVIEW="${value}": use 1 (review before going live) or leave it unset`);
  if (backend?.name === "gitea") {
    throw new SettingsError(
      "CMS_REVIEW=1 needs a git host whose Decap backend offers the editorial workflow (GitHub or GitLab); Decap's gitea backend does not",
    );
  }
  return Boolean(backend);
}

/** SITE_URL's origin: https, or http on this machine (the tests). */
function siteOrigin(siteUrl: string | undefined): string {
  const url = siteUrl && URL.canParse(siteUrl) ? new URL(siteUrl) : undefined;
  const local = url?.protocol === "http:" && /^(localhost|127\.0\.0\.1)$/.test(url.hostname);
  if (!url || (url.protocol !== "https:" && !local)) {
    throw new SettingsError(
      `the site's own GitHub sign-in needs SITE_URL, the https:// address the studio is served from (found ${siteUrl ?? "nothing"})`,
    );
  }
  return url.origin;
}

/** The local backend of `npm run cms`: decap-server on loopback, which reads and writes the working copy. */
export function localBackend(proxyUrl: string): BackendConfig {
  return { name: "proxy", proxy_url: proxyUrl, branch: "main" };
}

/** The origins the studio's scripts fetch from: the git host's API, or the local server. */
export function connectOrigins(backend: Backend): string[] {
  if (!backend) return [];
  if (backend.name === "proxy") return [new URL(backend.proxy_url!).origin];
  const api = backend.api_root ?? API_ROOTS[backend.name];
  const origins = [api, backend.name === "github" ? undefined : backend.base_url].filter(
    (url): url is string => url !== undefined,
  );
  return [...new Set(origins.map((url) => new URL(url).origin))];
}

/** Where the git host serves the signed-in editor's picture, shown in the studio's header. */
function avatarOrigins(backend: BackendConfig): string[] {
  if (backend.name === "github") return ["https://avatars.githubusercontent.com"];
  if (backend.name === "gitlab")
    return ["https://secure.gravatar.com", new URL(backend.base_url ?? "https://gitlab.com").origin];
  if (backend.name === "gitea" && backend.base_url) return [new URL(backend.base_url).origin];
  return [];
}

/**
 * The studio's Content-Security-Policy: the site's strict one would stop Decap CMS, which
 * - styles itself with CSS-in-JS (emotion writes <style> elements): style-src 'unsafe-inline';
 * - compiles its configuration's JSON Schema validators at run time (ajv): script-src 'unsafe-eval';
 * - shows images of the working copy or the repository from blob: URLs (and reads an upload back from
 *   one to save it), and avatars of the git host;
 * - fetches the content from the git host's API (connect-src), and signs in in a pop-up (not governed).
 * Without a backend the page only shows its message: no eval, no connections.
 */
export function adminCsp(backend: Backend): string {
  const connect = connectOrigins(backend);
  const directives: Array<[string, string]> = [
    ["default-src", "'self'"],
    ["script-src", backend ? "'self' 'unsafe-eval'" : "'self'"],
    ["style-src", "'self' 'unsafe-inline'"],
    ["img-src", backend ? ["'self'", "data:", "blob:", ...avatarOrigins(backend)].join(" ") : "'self'"],
    ["font-src", "'self'"],
    // blob: an uploaded image is read back from its blob: URL to be saved.
    ["connect-src", ["'self'", ...(backend ? ["blob:"] : []), ...connect].join(" ")],
    ["media-src", "'self' blob:"],
    // The preview is an iframe of the studio's own document.
    ["frame-src", "'self'"],
    ["worker-src", "'self' blob:"],
    ["object-src", "'none'"],
    ["base-uri", "'self'"],
    ["form-action", "'self'"],
    ["frame-ancestors", "'none'"],
  ];
  return directives.map(([name, value]) => `${name} ${value}`).join("; ");
}
