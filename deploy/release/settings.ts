/**
 * The release's settings: RELEASE_* variables from the environment, over those of a settings file
 * (KEY=VALUE lines; default <root>/shared/release.env). The file's other variables (SITE_URL, …) are
 * the build's production settings. Nothing here is written to the status file.
 */
import fs from "node:fs";
import path from "node:path";
import { parseRepository, type Repository } from "./repository";

export interface Settings {
  /** <root>/releases/<id>, <root>/current, <root>/shared. */
  root: string;
  /** The site's git repository: a URL or a path (a bare repository in the tests), its credential apart. */
  repo: Repository;
  /** What `--commit` defaults to: a branch, or HEAD (the repository's default branch). */
  branch: string;
  keep: number;
  /** Environment of the content check and the build: the file's variables, NODE_ENV=production. */
  buildEnv: NodeJS.ProcessEnv;
  /** Extra arguments of deploy/nginx/render.ts (listen, server name, TLS, upstream, limits). */
  nginxArgs: string[];
  /** Shell commands; {release}, {conf} (the release's nginx folder) and {id} are filled in. */
  nginxTest: string;
  nginxReload: string;
  /** Root's own nginx configuration (Debian's /etc/nginx): a release refuses while it includes the release root. */
  rootNginxConf: string;
  serviceRestart: string;
  npmCi: string;
  /** Paths whose change between two releases means the service's code changed. */
  servicePaths: string[];
  /** The live site as visitors reach it: /home must answer 200 with the new build. */
  liveUrl: string;
  liveTimeoutMs: number;
  /** Where the service writes that a release is wanted (its RELEASE_REQUESTS_DIR): --wanted takes it. */
  requestsDir?: string;
  /** How long --wanted waits for a release under way before leaving the request for its next start. */
  lockWaitMs: number;
  /**
   * Test-only: a checkout whose node_modules (and admin/node_modules) a first release hard-links when
   * its lockfiles are the same, instead of `npm ci`.
   */
  seedNodeModules?: string;
}

export const DEFAULTS = {
  RELEASE_KEEP: "5",
  RELEASE_BRANCH: "HEAD",
  RELEASE_NGINX_TEST: "nginx -t -q -p {conf} -c nginx.conf -e {conf}/logs/error.log",
  // What the polkit rule (deploy/polkit/) allows the release user, and the release units set.
  RELEASE_NGINX_RELOAD: "systemctl reload-or-restart cyrus-nginx.service",
  RELEASE_SERVICE_RESTART: "systemctl restart cyrus-enquiry.service",
  RELEASE_ROOT_NGINX_CONF: "/etc/nginx",
  RELEASE_NPM_CI: "npm ci --no-audit --no-fund",
  RELEASE_SERVICE_PATHS: "src/site-service src/enquiry-contract package.json package-lock.json",
  RELEASE_LIVE_TIMEOUT_SECONDS: "20",
  RELEASE_LOCK_WAIT_SECONDS: "3600",
} as const;

/** KEY=VALUE lines; # comments; values may be quoted. */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith("#")) continue;
    const [, key = "", raw = ""] = match;
    values[key] = /^(["']).*\1$/.test(raw) ? raw.slice(1, -1) : raw;
  }
  return values;
}

/** Splits "a 'b c' d" into words (quotes group; no other shell syntax). */
export function words(text: string): string[] {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/**
 * The settings file, refused unless only its owner may read and write it (mode 600): it holds the
 * repository's credential, and commands the release runs. Refused rather than tightened here: a file
 * others could read may have been read, and its owner should know (and change the token).
 */
function readPrivate(file: string): string {
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0)
    throw new Error(
      `${file} may be read or changed by other users (mode ${mode.toString(8)}); it holds the repository's credential. Run: chmod 600 ${file}`,
    );
  return fs.readFileSync(file, "utf8");
}

export function readSettings(env: NodeJS.ProcessEnv = process.env, rootOption?: string): Settings {
  const root = path.resolve(rootOption ?? env.RELEASE_ROOT ?? "");
  if (!rootOption && !env.RELEASE_ROOT)
    throw new Error("RELEASE_ROOT is not set (the folder holding releases/, current, shared/)");
  const file = env.RELEASE_SETTINGS ?? path.join(root, "shared", "release.env");
  const fromFile = fs.existsSync(file) ? parseEnvFile(readPrivate(file)) : {};
  const all: Record<string, string | undefined> = { ...DEFAULTS, ...fromFile, ...env };
  const get = (key: string) => all[key] ?? "";
  if (!get("RELEASE_REPO"))
    throw new Error(`RELEASE_REPO is not set (the site's git repository; in ${file} or the environment)`);
  const repo = parseRepository(get("RELEASE_REPO"));
  // CMS_RELEASE_STATUS: the release's nginx serves its status, so the studio shows it. RELEASE_REPO
  // without its token: the build runs the repository's code and packages, which need none.
  const buildEnv: NodeJS.ProcessEnv = {
    ...fromFile,
    ...env,
    RELEASE_REPO: repo.url,
    NODE_ENV: "production",
    GATSBY_TELEMETRY_DISABLED: "1",
    CMS_RELEASE_STATUS: "1",
  };
  const keep = Number(get("RELEASE_KEEP"));
  if (!Number.isInteger(keep) || keep < 2)
    throw new Error("RELEASE_KEEP must be a whole number of at least 2 (rollback needs one)");
  const liveUrl = (get("RELEASE_LIVE_URL") || get("SITE_URL")).replace(/\/+$/, "");
  if (!liveUrl) throw new Error("RELEASE_LIVE_URL (or SITE_URL) is not set: the live check needs the site's address");
  return {
    root,
    repo,
    branch: get("RELEASE_BRANCH"),
    keep,
    buildEnv,
    nginxArgs: words(get("RELEASE_NGINX_ARGS")),
    nginxTest: get("RELEASE_NGINX_TEST"),
    nginxReload: get("RELEASE_NGINX_RELOAD"),
    rootNginxConf: get("RELEASE_ROOT_NGINX_CONF"),
    serviceRestart: get("RELEASE_SERVICE_RESTART"),
    npmCi: get("RELEASE_NPM_CI"),
    servicePaths: words(get("RELEASE_SERVICE_PATHS")),
    liveUrl,
    liveTimeoutMs: Number(get("RELEASE_LIVE_TIMEOUT_SECONDS")) * 1000,
    seedNodeModules: get("RELEASE_SEED_NODE_MODULES") || undefined,
    requestsDir: get("RELEASE_REQUESTS_DIR") || undefined,
    lockWaitMs: Number(get("RELEASE_LOCK_WAIT_SECONDS")) * 1000,
  };
}
