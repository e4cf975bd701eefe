/**
 * Renders the nginx configuration of the site for one build, one address and one enquiry service:
 *
 *   npm run nginx-config -- --root /srv/cyrus/releases/42/public --out /etc/nginx/cyrus \
 *        --listen 443 --listen [::]:443 --server-name www.example.com \
 *        --tls-cert /etc/letsencrypt/live/www.example.com/fullchain.pem \
 *        --tls-key /etc/letsencrypt/live/www.example.com/privkey.pem \
 *        --http-redirect 80 --http-redirect [::]:80 --acme-webroot /var/lib/cyrus-acme-challenge \
 *        --upstream 127.0.0.1:9100
 *
 * Several instances of the service (PostgreSQL, DATABASE_URL): --upstream once for each, or one
 * comma-separated list (--upstream 127.0.0.1:9101,127.0.0.1:9102); nginx shares the enquiries out
 * between them, and one that refuses the connection is skipped (a request already sent to an instance
 * is never sent to another: nginx does not repeat a POST).
 *
 * Limits (defaults for one small company site; see cyrus.conf.template): --api-rate 10r/m,
 * --api-burst 20, --api-conn-limit 4, --conn-limit 100, --api-timeout 30 (seconds nginx waits for
 * the enquiry service; keep the service's ENQUIRY_DEADLINE_SECONDS, 20 by default, below it);
 * the enquiry inbox's own, per address (an office's staff share one): --inbox-rate 900r/m,
 * --inbox-burst 300 (30 people; the template's comment has the figures).
 * --acme-webroot <folder>: answers the ACME HTTP-01 challenges (/.well-known/acme-challenge/<token>)
 * from <folder>/.well-known/acme-challenge/, where the certificate client writes them
 * (deploy/server/certificates, lego's --http.webroot), on the plain-HTTP server before its redirect
 * to HTTPS, and on the site's own server (a site on plain HTTP is validated there).
 * --brotli auto|on|off: serve the .br copies with the brotli_static module (auto: when Debian's
 * libnginx-mod-http-brotli-static is installed).
 *
 * writes into --root first: a .gz and a .br copy beside every text file (deploy/precompress.ts), which
 * gzip_static and brotli_static send as they are; copies still current are kept.
 *
 * writes into --out:
 *   cyrus.conf             the server (from cyrus.conf.template): include it in nginx's http {} block
 *   security-headers.conf  the headers every answer carries
 *   admin-headers.conf, admin-csp.conf  the same for the editing studio, with its own policy
 *   oauth-headers.conf, oauth-csp.conf  the same for the studio's sign-in window (/oauth/), which keeps
 *                          its opener and runs the one script of its page
 *   inbox-headers.conf, inbox-csp.conf  the same for the enquiry inbox (/inbox/): no referrer, and a
 *                          policy of its own files only (no inline script, no other origin)
 *   csp.conf               the Content-Security-Policy of the build in --root (deploy/csp-hashes.ts)
 *   mime.types             the media types of the site's files
 *   nginx.conf             with --standalone only: a complete configuration with its pid, logs and
 *                          temporary files under --out, run as `nginx -p <out> -c nginx.conf`
 *                          (what the tests do, on a loopback port with a temporary root; and what a
 *                          release tests with `nginx -t` before it goes live)
 *   cyrus-nginx.conf       with --standalone only: the same, with its pid in --run-dir (default:
 *                          RELEASE_NGINX_RUN_DIR, else /var/lib/cyrus-web), its logs in --log-dir
 *                          (RELEASE_NGINX_LOG_DIR, else /var/log/cyrus-web) and its temporary files
 *                          in --temp-dir (RELEASE_NGINX_TEMP_DIR, else /var/cache/cyrus-web): three
 *                          folders of nginx's own user, none inside another, where cyrus-nginx.service
 *                          runs it unprivileged (docs/server-design.md says why)
 *
 * Every file is written whole, then renamed into place. After a new build: render again for the
 * new root, `nginx -t`, and reload nginx.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { CALLBACK_CSP } from "../../src/site-service";
import { buildCsp, nginxInclude, writeAtomically, type Csp } from "../csp-hashes";
import { precompress, type PrecompressResult } from "../precompress";

const USAGE = `usage: npm run nginx-config -- --root <public folder> --out <folder>
    [--listen <[address:]port>]...   (default 80; e.g. 127.0.0.1:8080, [::]:443)
    [--upstream <host:port>[,<host:port>…]]...  (default 127.0.0.1:9100, the enquiry service; several instances: each)
    [--server-name <name>]...        (default _ : any host)
    [--tls-cert <file> --tls-key <file>] [--http-redirect <[address:]port>]... (needs --server-name; e.g. 80 and [::]:80)
    [--acme-webroot <folder>]        (ACME HTTP-01: <folder>/.well-known/acme-challenge/ served on plain HTTP)
    [--api-rate <n>r/s|r/m] [--api-burst <n>] [--api-conn-limit <n>] [--conn-limit <n>] [--api-timeout <seconds>]
    [--inbox-rate <n>r/s|r/m] [--inbox-burst <n>]
    [--brotli auto|on|off]
    [--release-status <file>]        (the release's status file, served as /admin/release-status.json)
    [--standalone [--workers <n|auto>] [--no-access-log] [--daemon]
                  [--run-dir <folder>] [--log-dir <folder>] [--temp-dir <folder>]]`;

/**
 * cyrus-nginx.service's own folders, unless the options or RELEASE_NGINX_* say otherwise: its
 * StateDirectory (the pid), LogsDirectory and CacheDirectory (the temporary files).
 */
const UNIT_DIRS = {
  run: () => process.env.RELEASE_NGINX_RUN_DIR || "/var/lib/cyrus-web",
  log: () => process.env.RELEASE_NGINX_LOG_DIR || "/var/log/cyrus-web",
  temp: () => process.env.RELEASE_NGINX_TEMP_DIR || "/var/cache/cyrus-web",
};

/** Debian's brotli_static module (package libnginx-mod-http-brotli-static). */
export const BROTLI_STATIC_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

/** Values that end up in nginx directives: no quoting games, no variables, no extra directives. */
function checked(name: string, value: string, pattern: RegExp): string {
  if (!pattern.test(value)) throw new Error(`--${name} "${value}" is not allowed (expected ${pattern})`);
  return value;
}
const PATH = /^\/[^\s"'$\\;{}#]*$/;
const LISTEN = /^(\d{1,5}|[\w.-]+:\d{1,5}|\[[0-9a-fA-F:.]+\]:\d{1,5})$/;
const UPSTREAM = /^([\w.-]+|\[[0-9a-fA-F:.]+\]):\d{1,5}$|^unix:\/[^\s"'$\\;{}#]+$/;
const SERVER_NAME = /^(_|[\w.*-]+)$/;

/**
 * nginx's binary: NGINX_BIN, else the one on PATH, else Debian's /usr/sbin/nginx, which is not on the
 * PATH of a non-root user (nor of a CI shell started with a minimal PATH).
 */
export function nginxBinary(): string {
  if (process.env.NGINX_BIN) return process.env.NGINX_BIN;
  if (!spawnSync("nginx", ["-v"]).error) return "nginx";
  return fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx";
}

/** "1.25.1" → true when nginx ≥ 1.25.1 (where `http2 on;` replaced `listen … http2`). */
function nginxHasHttp2Directive(): boolean {
  const result = spawnSync(nginxBinary(), ["-v"], { encoding: "utf8" });
  const version = (result.stderr ?? "").match(/nginx\/(\d+)\.(\d+)\.(\d+)/);
  if (!version) return false;
  const [major = 0, minor = 0, patch = 0] = version.slice(1).map(Number);
  return major > 1 || (major === 1 && (minor > 25 || (minor === 25 && patch >= 1)));
}

/** What differs between the site's headers, the studio's and its sign-in window's (security-headers.conf.template). */
const SITE_HEADERS = {
  CSP_CONF: "csp.conf",
  COOP_HEADER: 'add_header Cross-Origin-Opener-Policy "same-origin" always;',
  REFERRER_POLICY: "strict-origin-when-cross-origin",
};
const ADMIN_HEADERS = {
  ...SITE_HEADERS,
  CSP_CONF: "admin-csp.conf",
  COOP_HEADER: 'add_header Cross-Origin-Opener-Policy "same-origin-allow-popups" always;',
};
const OAUTH_HEADERS = {
  CSP_CONF: "oauth-csp.conf",
  COOP_HEADER: "# Cross-Origin-Opener-Policy: none (unsafe-none), or the window loses the studio.",
  REFERRER_POLICY: "no-referrer",
};

const INBOX_HEADERS = { ...SITE_HEADERS, CSP_CONF: "inbox-csp.conf", REFERRER_POLICY: "no-referrer" };
/** The inbox's pages and API: its own files only; nothing inline, nothing of another origin. */
export const INBOX_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; " +
  "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export interface RenderOptions {
  root: string;
  out: string;
  listen?: string[];
  /** One instance, a comma-separated list, or a list: several instances of the service. */
  upstream?: string | string[];
  serverName?: string[];
  tlsCert?: string;
  tlsKey?: string;
  /** The plain-HTTP server's addresses: one, or several (80 and [::]:80 on a server with IPv6). */
  httpRedirect?: string | string[];
  /** The folder whose .well-known/acme-challenge/ answers the CA's HTTP-01 challenges. */
  acmeWebroot?: string;
  apiRate?: string;
  apiBurst?: string;
  apiConnLimit?: string;
  connLimit?: string;
  apiTimeout?: string;
  inboxRate?: string;
  inboxBurst?: string;
  brotli?: string;
  standalone?: boolean;
  workers?: string;
  accessLog?: false;
  daemon?: boolean;
  /** Where cyrus-nginx.conf puts its pid, logs and temporary files (nginx's own user's folders). */
  runDir?: string;
  logDir?: string;
  tempDir?: string;
  /** The release's status file (deploy/release/status.ts), served to the studio; none: not served. */
  releaseStatus?: string;
}

export interface Rendered {
  out: string;
  files: string[];
  csp: Csp;
  precompressed: PrecompressResult;
  brotli: boolean;
  limits: {
    apiRate: string;
    apiBurst: number;
    apiConnLimit: number;
    connLimit: number;
    apiTimeout: number;
    inboxRate: string;
    inboxBurst: number;
  };
}

/**
 * The editing studio's Content-Security-Policy (public/admin/csp.txt, written by its build for the git
 * host it was built for; admin/scripts/backend.ts says why it differs from the site's). A build
 * without it gets a policy that runs nothing.
 */
export function adminCspInclude(root: string): string {
  const file = path.join(root, "admin", "csp.txt");
  const policy = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "default-src 'none'";
  if (/["$\\\n]/.test(policy)) throw new Error(`${file}: a character nginx cannot carry in a header`);
  return [
    `# Content-Security-Policy of the editing studio (/admin), from ${file}`,
    `add_header Content-Security-Policy "${policy}" always;`,
    "",
  ].join("\n");
}

export async function renderConfig(options: RenderOptions): Promise<Rendered> {
  const root = path.resolve(checked("root", options.root, /./));
  checked("root", root, PATH);
  if (!fs.existsSync(path.join(root, "404.html")))
    throw new Error(`--root ${root} is not a built site (no 404.html): run npm run build first`);
  const out = path.resolve(options.out);
  checked("out", out, PATH);
  const listen = (options.listen?.length ? options.listen : ["80"]).map((l) => checked("listen", l, LISTEN));
  const upstreams = [options.upstream ?? "127.0.0.1:9100"]
    .flat()
    .flatMap((u) => u.split(","))
    .map((u) => checked("upstream", u.trim(), UPSTREAM));
  const serverNames = (options.serverName?.length ? options.serverName : ["_"]).map((n) =>
    checked("server-name", n, SERVER_NAME),
  );
  const serverName = serverNames[0] ?? "_";
  const tls = Boolean(options.tlsCert || options.tlsKey);
  if (tls && !(options.tlsCert && options.tlsKey)) throw new Error("--tls-cert and --tls-key go together");
  const httpRedirect = [options.httpRedirect ?? []].flat();
  if (httpRedirect.length && !tls) throw new Error("--http-redirect needs --tls-cert and --tls-key");
  // The redirect names the site itself: echoing the client's Host header would send visitors wherever it says.
  if (httpRedirect.length && !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(serverName)) {
    throw new Error(
      "--http-redirect needs --server-name, the site's own host name first (no _ or wildcard): HTTP is redirected there",
    );
  }
  const count = (name: string, value: string | undefined, fallback: number) =>
    Number(checked(name, String(value ?? fallback), /^[1-9]\d{0,5}$/));
  const limits = {
    apiRate: checked("api-rate", options.apiRate ?? "10r/m", /^[1-9]\d{0,5}r\/[sm]$/),
    apiBurst: count("api-burst", options.apiBurst, 20),
    apiConnLimit: count("api-conn-limit", options.apiConnLimit, 4),
    connLimit: count("conn-limit", options.connLimit, 100),
    apiTimeout: count("api-timeout", options.apiTimeout, 30),
    inboxRate: checked("inbox-rate", options.inboxRate ?? "900r/m", /^[1-9]\d{0,5}r\/[sm]$/),
    inboxBurst: count("inbox-burst", options.inboxBurst, 300),
  };
  const brotliWanted = checked("brotli", options.brotli ?? "auto", /^(auto|on|off)$/);
  const brotli = brotliWanted === "on" || (brotliWanted === "auto" && fs.existsSync(BROTLI_STATIC_MODULE));

  const http2Directive = tls && nginxHasHttp2Directive();
  const listenLines = listen.map((l) => `    listen ${l}${tls ? ` ssl${http2Directive ? "" : " http2"}` : ""};`);
  if (tls) {
    listenLines.push(
      ...(http2Directive ? ["    http2 on;"] : []),
      `    ssl_certificate ${checked("tls-cert", path.resolve(options.tlsCert ?? ""), PATH)};`,
      `    ssl_certificate_key ${checked("tls-key", path.resolve(options.tlsKey ?? ""), PATH)};`,
      "    ssl_protocols TLSv1.2 TLSv1.3;",
      "    ssl_prefer_server_ciphers off;",
      "    ssl_session_cache shared:cyrus_tls:10m;",
      "    ssl_session_timeout 1d;",
      "    ssl_session_tickets off;",
    );
  }
  const acmeWebroot = options.acmeWebroot
    ? checked("acme-webroot", path.resolve(options.acmeWebroot), PATH)
    : undefined;
  // A prefix location with ^~: neither the dot-file rule nor any other regular expression is tried.
  const acmeLocation = (indent: string) =>
    acmeWebroot
      ? [
          `${indent}location ^~ /.well-known/acme-challenge/ {`,
          `${indent}    root ${acmeWebroot};`,
          `${indent}    default_type text/plain;`,
          `${indent}}`,
        ]
      : [];
  const redirectTo = `https://${serverName}$request_uri`;
  const redirectListen = httpRedirect.map((l) => `    listen ${checked("http-redirect", l, LISTEN)};`);
  const redirectServer = redirectListen.length
    ? [
        "",
        acmeWebroot
          ? "# Plain HTTP: everything moves to HTTPS, but the CA's HTTP-01 challenges (a certificate is\n# obtained and renewed through them, the first one before any certificate exists)."
          : "# Plain HTTP: everything moves to HTTPS.",
        "server {",
        ...redirectListen,
        `    server_name ${serverNames.join(" ")};`,
        "    server_tokens off;",
        // A return at the server's level would come before any location: the challenge's too.
        ...(acmeWebroot
          ? [...acmeLocation("    "), "    location / {", `        return 301 ${redirectTo};`, "    }"]
          : [`    return 301 ${redirectTo};`]),
        "}",
      ].join("\n")
    : "";

  const values: Readonly<Record<string, string>> = {
    ROOT: root,
    UPSTREAM_SERVERS: upstreams.map((u) => `    server ${u} max_fails=0;`).join("\n"),
    // With one instance there is nowhere else to go; with several, one that refuses the connection
    // (stopped, restarting) is skipped. nginx never repeats a POST it has sent, so no enquiry
    // reaches two instances (and a visitor's own resend is recognised by either).
    NEXT_UPSTREAM: upstreams.length > 1 ? "error" : "off",
    SERVER_NAME: serverNames.join(" "),
    CONF_DIR: out,
    LISTEN_DIRECTIVES: listenLines.join("\n"),
    HTTP_REDIRECT_SERVER: redirectServer,
    ACME_CHALLENGE: acmeWebroot
      ? [
          `    # The CA's HTTP-01 challenges (render.ts --acme-webroot), also here: a site on plain HTTP`,
          "    # is validated on this server.",
          ...acmeLocation("    "),
        ].join("\n")
      : "    # /.well-known/acme-challenge/: not rendered (no --acme-webroot).",
    PREFIX: out,
    PID_DIR: out,
    LOG_DIR: `${out}/logs`,
    TEMP_DIR: `${out}/temp`,
    RUN_DIR_NOTE: "",
    DAEMON: options.daemon ? "daemon on;" : "daemon off;",
    WORKERS: checked("workers", String(options.workers ?? "auto"), /^(auto|\d{1,3})$/),
    ACCESS_LOG: options.accessLog === false ? "off" : `${out}/logs/access.log cyrus_json`,
    API_RATE: limits.apiRate,
    API_BURST: String(limits.apiBurst),
    API_CONN_LIMIT: String(limits.apiConnLimit),
    CONN_LIMIT: String(limits.connLimit),
    API_TIMEOUT: String(limits.apiTimeout),
    INBOX_RATE: limits.inboxRate,
    INBOX_BURST: String(limits.inboxBurst),
    BROTLI_STATIC: brotli
      ? "    brotli_static on;"
      : "    # brotli_static: not rendered (install libnginx-mod-http-brotli-static, or --brotli on).",
    LOAD_MODULES: brotli && options.standalone ? `load_module ${BROTLI_STATIC_MODULE};` : "",
    RELEASE_STATUS: options.releaseStatus
      ? [
          "    # What the release is doing, for the studio (docs/release-runner.md, The status and the log): commit ids, titles,",
          "    # times and the last failure's message; no setting, address, secret or personal data.",
          "    location = /admin/release-status.json {",
          `        include ${out}/admin-headers.conf;`,
          '        add_header Cache-Control "no-store" always;',
          '        add_header X-Robots-Tag "noindex, nofollow" always;',
          "        default_type application/json;",
          `        alias ${checked("release-status", path.resolve(options.releaseStatus), PATH)};`,
          "    }",
        ].join("\n")
      : "    # /admin/release-status.json: not rendered (no --release-status; npm run release gives it).",
  };
  const fill = (template: string, extra: Record<string, string> = {}) =>
    fs.readFileSync(path.join(__dirname, template), "utf8").replace(/\{\{([A-Z_]+)\}\}/g, (whole, key: string) => {
      const all: Record<string, string | undefined> = { ...SITE_HEADERS, ...values, ...extra };
      const value = all[key];
      if (value === undefined) throw new Error(`${template}: unknown placeholder ${whole}`);
      return value;
    });

  // The copies first: a configuration is written only for a root that has them.
  const precompressed = await precompress(root);
  const csp = buildCsp(root);
  fs.mkdirSync(out, { recursive: true });
  const files: Record<string, string> = {
    "cyrus.conf": fill("cyrus.conf.template"),
    "security-headers.conf": fill("security-headers.conf.template"),
    "csp.conf": nginxInclude(csp, root),
    // The editing studio (/admin): the same headers with its own policy, which its build wrote.
    "admin-headers.conf": fill("security-headers.conf.template", ADMIN_HEADERS),
    "admin-csp.conf": adminCspInclude(root),
    // The studio's sign-in window (the service's /oauth/ paths): keeps its opener, runs its page's script.
    "oauth-headers.conf": fill("security-headers.conf.template", OAUTH_HEADERS),
    "oauth-csp.conf": [
      "# Content-Security-Policy of the sign-in's callback page (src/site-service/sign-in/callback-page.ts)",
      `add_header Content-Security-Policy "${CALLBACK_CSP}" always;`,
      "",
    ].join("\n"),
    // The enquiry inbox (/inbox/): personal data; no referrer, its own strict policy.
    "inbox-headers.conf": fill("security-headers.conf.template", INBOX_HEADERS),
    "inbox-csp.conf": [
      "# Content-Security-Policy of the enquiry inbox (/inbox/ and its API)",
      `add_header Content-Security-Policy "${INBOX_CSP}" always;`,
      "",
    ].join("\n"),
    "mime.types": fs.readFileSync(path.join(__dirname, "mime.types"), "utf8"),
  };
  if (options.standalone) {
    files["nginx.conf"] = fill("nginx.conf.template");
    // The same server, run by nginx's own unprivileged user: every file it writes is in its own folders.
    const runDir = checked("run-dir", path.resolve(options.runDir ?? UNIT_DIRS.run()), PATH);
    const logDir = checked("log-dir", path.resolve(options.logDir ?? UNIT_DIRS.log()), PATH);
    const tempDir = checked("temp-dir", path.resolve(options.tempDir ?? UNIT_DIRS.temp()), PATH);
    files["cyrus-nginx.conf"] = fill("nginx.conf.template", {
      PREFIX: runDir,
      PID_DIR: runDir,
      LOG_DIR: logDir,
      TEMP_DIR: tempDir,
      RUN_DIR_NOTE: [
        "# What cyrus-nginx.service runs (deploy/systemd/): nginx as its own user, never root, so that",
        "# nothing a release writes is read as configuration by a root process (docs/server-design.md).",
      ].join("\n"),
      ACCESS_LOG: options.accessLog === false ? "off" : `${logDir}/access.log cyrus_json`,
    });
    for (const dir of ["logs", "temp"]) fs.mkdirSync(path.join(out, dir), { recursive: true });
    // nginx's workers run as an unprivileged user when started by root: they must be able to
    // reach the temporary folders nginx creates for them here.
    if (process.getuid?.() === 0) {
      fs.chmodSync(out, 0o755);
      fs.chmodSync(path.join(out, "temp"), 0o755);
    }
  }
  for (const [name, text] of Object.entries(files)) writeAtomically(path.join(out, name), text);
  return { out, files: Object.keys(files), csp, precompressed, brotli, limits };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      root: { type: "string" },
      out: { type: "string" },
      listen: { type: "string", multiple: true },
      upstream: { type: "string", multiple: true },
      "server-name": { type: "string", multiple: true },
      "tls-cert": { type: "string" },
      "tls-key": { type: "string" },
      "http-redirect": { type: "string", multiple: true },
      "acme-webroot": { type: "string" },
      "api-rate": { type: "string" },
      "api-burst": { type: "string" },
      "api-conn-limit": { type: "string" },
      "conn-limit": { type: "string" },
      "api-timeout": { type: "string" },
      "inbox-rate": { type: "string" },
      "inbox-burst": { type: "string" },
      brotli: { type: "string" },
      standalone: { type: "boolean" },
      workers: { type: "string" },
      "no-access-log": { type: "boolean" },
      daemon: { type: "boolean" },
      "release-status": { type: "string" },
      "run-dir": { type: "string" },
      "log-dir": { type: "string" },
      "temp-dir": { type: "string" },
      help: { type: "boolean" },
    },
  });
  if (values.help || !values.root || !values.out) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  const result = await renderConfig({
    root: values.root,
    out: values.out,
    listen: values.listen,
    upstream: values.upstream,
    serverName: values["server-name"],
    tlsCert: values["tls-cert"],
    tlsKey: values["tls-key"],
    httpRedirect: values["http-redirect"],
    acmeWebroot: values["acme-webroot"],
    apiRate: values["api-rate"],
    apiBurst: values["api-burst"],
    apiConnLimit: values["api-conn-limit"],
    connLimit: values["conn-limit"],
    apiTimeout: values["api-timeout"],
    inboxRate: values["inbox-rate"],
    inboxBurst: values["inbox-burst"],
    brotli: values.brotli,
    standalone: values.standalone,
    workers: values.workers,
    accessLog: values["no-access-log"] ? false : undefined,
    daemon: values.daemon,
    releaseStatus: values["release-status"],
    runDir: values["run-dir"],
    logDir: values["log-dir"],
    tempDir: values["temp-dir"],
  });
  const { files, compressed, removed } = result.precompressed;
  console.log(
    `.gz and .br copies in ${values.root}: ${files} text file(s), ${compressed} compressed now, ${removed} stale cop(ies) removed`,
  );
  console.log(
    `wrote ${result.files.join(", ")} in ${result.out} (${result.csp.hashes.length} script hashes; brotli ${result.brotli ? "on" : "off"})`,
  );
  if (values.standalone) console.log(`run: nginx -p ${result.out} -c nginx.conf`);
  else
    console.log(
      `include ${path.join(result.out, "cyrus.conf")} in nginx's http {} block, then: nginx -t && nginx -s reload`,
    );
  return 0;
}

if (require.main === module) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`render: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
