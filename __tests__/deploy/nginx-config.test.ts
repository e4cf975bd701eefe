/**
 * The two scripts of a deployment, on small made-up builds: deploy/csp-hashes.ts (the
 * Content-Security-Policy of a build) and deploy/nginx/render.ts (the nginx configuration),
 * including a real nginx started with the rendered TLS configuration.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import zlib from "node:zlib";
import { freePort } from "../support/serve";
import { request } from "./support/http";
import { NGINX, projectRoot, run, stopProc, type Proc } from "./support/stack";

const dirs: string[] = [];
const procs: Proc[] = [];
afterAll(async () => {
  for (const proc of procs) await stopProc(proc, "SIGQUIT", 5_000);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-nginx-config-"));
  fs.chmodSync(dir, 0o755);
  dirs.push(dir);
  return dir;
}

/** A made-up build: files relative to the root, with a 404.html. */
function fakeBuild(files: Record<string, string>): string {
  const root = path.join(tempDir(), "public");
  for (const [name, text] of Object.entries({ "404.html": "<!DOCTYPE html><title>Not found</title>", ...files })) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  return root;
}

/** A deployment script run as the npm scripts run it: TypeScript, through tsx. */
const node = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, ["--import", "tsx", ...args], {
    cwd: projectRoot,
    encoding: "utf8",
    env: { ...process.env, GATSBY_ENQUIRY_API: "", ...env },
  });

function csp(root: string, env: NodeJS.ProcessEnv = {}) {
  const result = node(["deploy/csp-hashes.ts", "--public", root, "--json"], env);
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as {
    policy: string;
    hashes: string[];
    inlineScripts: number;
    dataBlocks: number;
    files: number;
  };
}

describe("csp-hashes.ts", () => {
  test("Gatsby's slices, fragments stitched into pages while it builds, are not read: their scripts run in no page", () => {
    const root = fakeBuild({
      "home/index.html":
        '<!DOCTYPE html><html><head><script type="speculationrules">{}</script></head><body></body></html>',
      "_gatsby/slices/_gatsby-scripts-1.html": '<script>window.___webpackCompilationHash="abc";</script>',
    });
    const result = csp(root);
    // home and the fake build's 404 page.
    expect(result.files).toBe(2);
    expect(result.inlineScripts).toBe(1);
    expect(result.hashes).toHaveLength(1);
  });

  test("hashes the speculation rules, the one inline script CSP governs; data blocks and the site's own files are not hashed", () => {
    const rules = `{"prerender":[{"where":{"href_matches":"/*"},"eagerness":"moderate"}]}`;
    const root = fakeBuild({
      "home/index.html": [
        "<!DOCTYPE html><html><head>",
        `<script type="application/ld+json" data-gatsby-head="true">{"@type":"Organization"}</script>`,
        `<script type="speculationrules">${rules}</script>`,
        `<script src="/app-0123456789abcdef0123.js" async></script>`,
        `<!-- <script>commented()</script> <script src="https://evil.example/x.js"></script> -->`,
        "</head><body>",
        `<script id="island-data-carousel" type="application/json">{"slides":["</scr" + "ipt>"]}</script>`,
        `<script type="module" src="/islands/carousel-FXRU4CGI.js" async="" data-island="carousel"></script>`,
        `<script type="module" src="islands/relative.js"></script>`,
        "</body></html>",
      ].join("\n"),
    });
    const result = csp(root);
    expect(result.files).toBe(2);
    expect(result.inlineScripts).toBe(1);
    expect(result.dataBlocks).toBe(2);
    expect(result.hashes).toEqual([`'sha256-${createHash("sha256").update(rules).digest("base64")}'`]);
    expect(result.policy).toMatch(/^default-src 'self'; script-src 'self' 'sha256-[^ ;]+'; /);
    expect(result.policy.split("; ").find((d) => d.startsWith("script-src "))).not.toMatch(/unsafe/);
    expect(result.policy).toContain("style-src 'self' 'unsafe-inline';");
    expect(result.policy).toContain("frame-ancestors 'none'");
    expect(result.policy).toContain("frame-src 'none'");
  });

  test("the same script in many pages is one hash; the include is an nginx add_header line", () => {
    const page = `<!DOCTYPE html><script type="speculationrules">{"prefetch":[]}</script>`;
    const root = fakeBuild({ "a/index.html": page, "b/index.html": page });
    expect(csp(root).hashes).toHaveLength(1);
    const out = path.join(tempDir(), "csp.conf");
    expect(node(["deploy/csp-hashes.ts", "--public", root, "--out", out]).status).toBe(0);
    const include = fs.readFileSync(out, "utf8");
    expect(include).toMatch(
      /^add_header Content-Security-Policy "default-src 'self'; script-src 'self' 'sha256-[^"]+" always;$/m,
    );
  });

  test.each([
    ["another origin", `<script src="https://evil.example/x.js"></script>`, "https://evil.example"],
    ["a protocol-relative address", `<script src="//evil.example/x.js" async></script>`, "https://evil.example"],
    ["a backslash a browser reads as //", `<script src="/\\evil.example/x.js"></script>`, "https://evil.example"],
    [
      "an origin written with entities",
      `<script src="https&#58;//evil.example/x.js"></script>`,
      "https://evil.example",
    ],
    ["a data: URL", `<script src="data:text/javascript,alert(1)"></script>`, "a data: URL"],
  ])("a <script src> of %s fails the build, naming the file and the script", (_label, html, what) => {
    const root = fakeBuild({ "home/index.html": `<!DOCTYPE html><title>Home</title>${html}` });
    const result = node(["deploy/csp-hashes.ts", "--public", root]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${path.join("home", "index.html")}: <script src=`);
    expect(result.stderr).toContain(what);
    expect(result.stdout).toBe("");
  });

  test.each([
    ["a classic script", `<script>alert(1)</script>`, "<script>alert(1)</script>"],
    ["a typed one", `<script type="text/javascript">alert(2)</script>`, "alert(2)"],
    ["a module", `<script type="module">import "/x.js";</script>`, `import "/x.js";`],
    ["an import map", `<script type="importmap">{"imports":{}}</script>`, "importmap"],
    ["a type of its own", `<script type="text/x-template"><p>{{x}}</p></script>`, "text/x-template"],
  ])(
    "an inline script that is not one of the site's own kinds (%s) fails the build, naming the file and the script",
    (_label, html, what) => {
      const root = fakeBuild({ "contact/index.html": `<!DOCTYPE html><title>Contact</title>${html}` });
      const result = node(["deploy/csp-hashes.ts", "--public", root]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`${path.join("contact", "index.html")}: <script`);
      expect(result.stderr).toContain(what);
      expect(result.stderr).toContain("not one of the site's own inline scripts");
    },
  );

  test("a folder with a foreign script and an unknown inline one: both named, and render.ts writes no configuration", () => {
    const root = fakeBuild({
      "home/index.html": `<!DOCTYPE html><script type="speculationrules">{}</script>`,
      "news/index.html": `<!DOCTYPE html><script src="https://evil.example/x.js"></script>`,
      "about/index.html": `<!DOCTYPE html><p>About</p><script>alert(1)</script>`,
    });
    const result = node(["deploy/csp-hashes.ts", "--public", root]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${path.join("news", "index.html")}: <script src="https://evil.example/x.js"> is not one of the site's own files (another origin, https://evil.example)`,
    );
    expect(result.stderr).toContain(`${path.join("about", "index.html")}: <script>alert(1)</script>`);
    expect(result.stderr).not.toContain(path.join("home", "index.html"));
    const out = path.join(tempDir(), "conf");
    const rendered = node(["deploy/nginx/render.ts", "--root", root, "--out", out]);
    expect(rendered.status).toBe(1);
    expect(rendered.stderr).toContain("https://evil.example/x.js");
    expect(fs.existsSync(path.join(out, "cyrus.conf"))).toBe(false);
  });

  test("embedded frames, outside images and an outside enquiry endpoint are allowed by origin", () => {
    const root = fakeBuild({
      "contact/index.html": `<iframe title="Map" src="https://www.openstreetmap.org/export/embed.html?bbox=1&amp;layer=mapnik"></iframe><img src="https://images.example.org/a.jpg" alt=""><picture><source srcset="https://cdn.example.org/a.webp 1x, https://cdn.example.org/b.webp 2x"></picture>`,
    });
    const { policy } = csp(root, { GATSBY_ENQUIRY_API: "https://api.example.org/v1/" });
    expect(policy).toContain("frame-src https://www.openstreetmap.org;");
    expect(policy).toContain("img-src 'self' data: https://cdn.example.org https://images.example.org;");
    expect(policy).toContain("connect-src 'self' https://api.example.org;");
    // The form posts there itself before (or without) JavaScript.
    expect(policy).toContain("form-action 'self' https://api.example.org;");
  });

  test.each([
    ["an inline event handler", `<button onclick="go()">Go</button>`, "onclick"],
    ["a javascript: link", `<a href="javascript:void(0)">x</a>`, "javascript:"],
  ])("%s cannot be allowed by a hash: it fails, naming the file", (_label, html, what) => {
    const root = fakeBuild({ "page/index.html": html });
    const result = node(["deploy/csp-hashes.ts", "--public", root]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(path.join("page", "index.html"));
    expect(result.stderr).toContain(what);
  });

  test("a folder without a build fails", () => {
    const result = node(["deploy/csp-hashes.ts", "--public", tempDir()]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("build the site first");
  });
});

describe("render.ts", () => {
  const home = `<!DOCTYPE html><html lang="en"><title>Home</title><script type="speculationrules">{"prefetch":[]}</script></html>`;

  test("renders a configuration nginx accepts, with no placeholder left", () => {
    const root = fakeBuild({ "home/index.html": home });
    const out = path.join(tempDir(), "conf");
    const result = node([
      "deploy/nginx/render.ts",
      "--standalone",
      "--root",
      root,
      "--out",
      out,
      "--listen",
      "127.0.0.1:8099",
      "--upstream",
      "127.0.0.1:9199",
      "--server-name",
      "www.example.com",
    ]);
    expect(result.status).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual([
      "admin-csp.conf",
      "admin-headers.conf",
      "csp.conf",
      "cyrus-nginx.conf",
      "cyrus.conf",
      "inbox-csp.conf",
      "inbox-headers.conf",
      "logs",
      "mime.types",
      "nginx.conf",
      "oauth-csp.conf",
      "oauth-headers.conf",
      "security-headers.conf",
      "temp",
    ]);
    for (const file of [
      "cyrus.conf",
      "security-headers.conf",
      "admin-headers.conf",
      "oauth-headers.conf",
      "inbox-headers.conf",
      "nginx.conf",
      "cyrus-nginx.conf",
    ])
      expect(fs.readFileSync(path.join(out, file), "utf8")).not.toMatch(/\{\{[A-Z_]+\}\}/);
    const site = fs.readFileSync(path.join(out, "cyrus.conf"), "utf8");
    expect(site).toContain(`root ${root};`);
    expect(site).toContain("listen 127.0.0.1:8099;");
    expect(site).toContain("server 127.0.0.1:9199 max_fails=0;");
    expect(site).toContain("server_name www.example.com;");
    const check = spawnSync(NGINX, ["-t", "-p", out, "-c", "nginx.conf", "-e", path.join(out, "logs", "error.log")], {
      encoding: "utf8",
    });
    expect(check.stderr).toContain("test is successful");
  });

  test("cyrus-nginx.conf: the same server, its pid, logs and temporary files in nginx's own three folders, none in the release's", () => {
    const root = fakeBuild({ "home/index.html": home });
    const out = path.join(tempDir(), "conf");
    // The unit's StateDirectory, LogsDirectory and CacheDirectory: side by side, none inside another.
    const base = tempDir();
    const [runDir, logDir, cacheDir] = ["lib", "log", "cache"].map((name) => path.join(base, name, "cyrus-web"));
    for (const dir of [runDir!, logDir!, cacheDir!]) fs.mkdirSync(dir, { recursive: true });
    const args = ["--standalone", "--root", root, "--out", out, "--listen", "127.0.0.1:8098"];
    const dirs = ["--run-dir", runDir!, "--log-dir", logDir!, "--temp-dir", cacheDir!];
    expect(node(["deploy/nginx/render.ts", ...args, ...dirs]).status).toBe(0);
    const unit = fs.readFileSync(path.join(out, "cyrus-nginx.conf"), "utf8");
    const written = (text: string) =>
      [...text.matchAll(/^\s*(pid|error_log|access_log|\w+_temp_path) (\S+?);?(?: |$)/gm)].map((m) => [m[1]!, m[2]!]);
    expect(written(unit)).toEqual([
      ["pid", `${runDir}/nginx.pid`],
      ["error_log", `${logDir}/error.log`],
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => [`${t}_temp_path`, `${cacheDir}/${t}`]),
      ["access_log", `${logDir}/access.log`],
    ]);
    // What it serves is the release's: the server block nginx.conf includes too.
    expect(unit).toContain(`include ${out}/cyrus.conf;`);
    expect(fs.readFileSync(path.join(out, "nginx.conf"), "utf8")).toContain(`include ${out}/cyrus.conf;`);
    const check = spawnSync(
      NGINX,
      ["-t", "-p", runDir!, "-c", path.join(out, "cyrus-nginx.conf"), "-e", path.join(logDir!, "error.log")],
      { encoding: "utf8" },
    );
    expect(check.stderr).toContain("test is successful");
    // nginx made its temporary folders in the cache folder, nothing in the others but what it writes.
    expect(fs.readdirSync(cacheDir!).sort()).toEqual(["client_body", "fastcgi", "proxy", "scgi", "uwsgi"]);
    // Without the options: the unit's own folders, or RELEASE_NGINX_RUN_DIR, _LOG_DIR and _TEMP_DIR.
    const byDefault = path.join(tempDir(), "conf");
    const noEnv = { RELEASE_NGINX_RUN_DIR: "", RELEASE_NGINX_LOG_DIR: "", RELEASE_NGINX_TEMP_DIR: "" };
    expect(node(["deploy/nginx/render.ts", "--standalone", "--root", root, "--out", byDefault], noEnv).status).toBe(0);
    expect(written(fs.readFileSync(path.join(byDefault, "cyrus-nginx.conf"), "utf8")).slice(0, 3)).toEqual([
      ["pid", "/var/lib/cyrus-web/nginx.pid"],
      ["error_log", "/var/log/cyrus-web/error.log"],
      ["client_body_temp_path", "/var/cache/cyrus-web/client_body"],
    ]);
    const fromEnv = path.join(tempDir(), "conf");
    const env = { RELEASE_NGINX_RUN_DIR: runDir!, RELEASE_NGINX_LOG_DIR: logDir!, RELEASE_NGINX_TEMP_DIR: cacheDir! };
    expect(node(["deploy/nginx/render.ts", "--standalone", "--root", root, "--out", fromEnv], env).status).toBe(0);
    expect(fs.readFileSync(path.join(fromEnv, "cyrus-nginx.conf"), "utf8")).toBe(unit.replaceAll(out, fromEnv));
  });

  test("several instances of the service: --upstream repeated or a comma-separated list, a refused connection moving on", () => {
    const root = fakeBuild({ "home/index.html": home });
    for (const upstreams of [["127.0.0.1:9101,127.0.0.1:9102", "127.0.0.1:9103"], ["127.0.0.1:9101"]]) {
      const out = path.join(tempDir(), "conf");
      const args = upstreams.flatMap((u) => ["--upstream", u]);
      const result = node(["deploy/nginx/render.ts", "--standalone", "--root", root, "--out", out, ...args]);
      expect(result.status).toBe(0);
      const site = fs.readFileSync(path.join(out, "cyrus.conf"), "utf8");
      const servers = site.match(/^ {4}server 127\.0\.0\.1:\d+ max_fails=0;$/gm);
      expect(servers).toHaveLength(upstreams.length === 1 ? 1 : 3);
      expect(site).toContain(`proxy_next_upstream ${upstreams.length === 1 ? "off" : "error"};`);
      const check = spawnSync(NGINX, ["-t", "-p", out, "-c", "nginx.conf", "-e", path.join(out, "logs", "error.log")], {
        encoding: "utf8",
      });
      expect(check.stderr).toContain("test is successful");
    }
  });

  test("writes a .gz and a .br copy of the root's text files for gzip_static and brotli_static, and says so", () => {
    const page = home.replace("</html>", `<p>${"Clinical research in Chennai. ".repeat(30)}</p></html>`);
    const root = fakeBuild({ "home/index.html": page });
    const result = node(["deploy/nginx/render.ts", "--root", root, "--out", path.join(tempDir(), "conf")]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(
      `.gz and .br copies in ${root}: 1 text file(s), 1 compressed now, 0 stale cop(ies) removed`,
    );
    const file = path.join(root, "home", "index.html");
    expect(zlib.gunzipSync(fs.readFileSync(`${file}.gz`)).toString()).toBe(page);
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).toString()).toBe(page);
    // Rendered again for the same root, the copies still current are kept.
    const again = node(["deploy/nginx/render.ts", "--root", root, "--out", path.join(tempDir(), "conf")]);
    expect(again.stdout).toContain("1 text file(s), 0 compressed now");
  });

  test("a refused option writes nothing, not even the copies", () => {
    const root = fakeBuild({ "home/index.html": home.replace("</html>", `${"<p>Chennai</p>".repeat(40)}</html>`) });
    const out = path.join(tempDir(), "conf");
    expect(node(["deploy/nginx/render.ts", "--root", root, "--out", out, "--workers", "x"]).status).toBe(1);
    expect(fs.existsSync(path.join(root, "home", "index.html.gz"))).toBe(false);
    expect(fs.existsSync(out)).toBe(false);
  });

  test.each([
    ["--listen", "80; include /etc/shadow"],
    ["--upstream", "127.0.0.1:9100 backup"],
    ["--server-name", "example.com; return 200"],
    ["--acme-webroot", "/var/lib/acme; include /etc/shadow"],
    ["--acme-webroot", "/var/lib/$acme"],
  ])("refuses %s %j (nothing but the value can reach the configuration)", (flag, value) => {
    const root = fakeBuild({ "home/index.html": home });
    const result = node(["deploy/nginx/render.ts", "--root", root, "--out", path.join(tempDir(), "conf"), flag, value]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("is not allowed");
  });

  test("--http-redirect needs the site's host name: without --server-name (or with a wildcard first) it refuses", () => {
    const root = fakeBuild({ "home/index.html": home });
    const certDir = tempDir();
    fs.writeFileSync(path.join(certDir, "c.pem"), "x");
    const base = [
      "deploy/nginx/render.ts",
      "--root",
      root,
      "--out",
      path.join(tempDir(), "conf"),
      "--tls-cert",
      path.join(certDir, "c.pem"),
      "--tls-key",
      path.join(certDir, "c.pem"),
      "--http-redirect",
      "80",
    ];
    for (const names of [[], ["--server-name", "*.example.com"]]) {
      const result = node([...base, ...names]);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("--http-redirect needs --server-name");
    }
  });

  test("the limits: production defaults, or the values given; anything else is refused", () => {
    const root = fakeBuild({ "home/index.html": home });
    const render = (...args: string[]) => {
      const out = path.join(tempDir(), "conf");
      const result = node(["deploy/nginx/render.ts", "--root", root, "--out", out, ...args]);
      return { result, conf: result.status === 0 ? fs.readFileSync(path.join(out, "cyrus.conf"), "utf8") : "" };
    };
    const defaults = render().conf;
    expect(defaults).toContain("limit_req_zone $binary_remote_addr zone=cyrus_api_rate:10m rate=10r/m;");
    expect(defaults).toContain("limit_req zone=cyrus_api_rate burst=20 nodelay;");
    expect(defaults).toContain("limit_conn cyrus_api_conn 4;");
    expect(defaults).toContain("limit_conn cyrus_conn 100;");
    expect(defaults).toContain("proxy_read_timeout 30s;");
    expect(defaults).toContain('proxy_set_header X-Request-Start "t=${msec}";');
    expect(defaults).toContain("gzip_static on;");
    // The inbox's own zone, for its page, its API and /inbox; the form's zone only for /api/.
    expect(defaults).toContain("limit_req_zone $binary_remote_addr zone=cyrus_inbox_rate:10m rate=900r/m;");
    expect(defaults.match(/limit_req zone=cyrus_inbox_rate burst=300 nodelay;/g)).toHaveLength(3);
    expect(defaults.match(/limit_req zone=cyrus_api_rate /g)).toHaveLength(1);
    const custom = render(
      "--api-rate",
      "5r/s",
      "--api-burst",
      "3",
      "--api-conn-limit",
      "2",
      "--conn-limit",
      "50",
      "--api-timeout",
      "12",
      "--inbox-rate",
      "20r/s",
      "--inbox-burst",
      "40",
    ).conf;
    for (const line of [
      "rate=5r/s;",
      "burst=3 nodelay;",
      "limit_conn cyrus_api_conn 2;",
      "limit_conn cyrus_conn 50;",
      "proxy_read_timeout 12s;",
      "proxy_send_timeout 12s;",
      "zone=cyrus_inbox_rate:10m rate=20r/s;",
      "limit_req zone=cyrus_inbox_rate burst=40 nodelay;",
    ]) {
      expect(custom).toContain(line);
    }
    for (const [flag, value] of [
      ["--api-rate", "10r/h"],
      ["--api-burst", "0"],
      ["--conn-limit", "many"],
      ["--api-timeout", "1; return 200"],
      ["--inbox-rate", "900r/h"],
      ["--inbox-burst", "0"],
    ]) {
      const { result } = render(flag!, value!);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("is not allowed");
    }
  });

  test("brotli: the build's .br copies are served when the module is there (or --brotli on), never when off", () => {
    const root = fakeBuild({ "home/index.html": home });
    const render = (...args: string[]) => {
      const out = path.join(tempDir(), "conf");
      expect(node(["deploy/nginx/render.ts", "--standalone", "--root", root, "--out", out, ...args]).status).toBe(0);
      return {
        site: fs.readFileSync(path.join(out, "cyrus.conf"), "utf8"),
        main: fs.readFileSync(path.join(out, "nginx.conf"), "utf8"),
      };
    };
    const on = render("--brotli", "on");
    expect(on.site).toContain("    brotli_static on;");
    expect(on.main).toContain("load_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;");
    const off = render("--brotli", "off");
    expect(off.site).not.toContain("brotli_static on;");
    expect(off.main).not.toContain("load_module");
    expect(render().site.includes("brotli_static on;")).toBe(
      fs.existsSync("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"),
    );
  });

  test("refuses a root that is not a build, or whose path nginx would read as variables", () => {
    expect(
      node(["deploy/nginx/render.ts", "--root", tempDir(), "--out", path.join(tempDir(), "conf")]).stderr,
    ).toContain("not a built site");
    const odd = path.join(tempDir(), "$document_root");
    fs.mkdirSync(odd);
    fs.writeFileSync(path.join(odd, "404.html"), "x");
    expect(node(["deploy/nginx/render.ts", "--root", odd, "--out", path.join(tempDir(), "conf")]).stderr).toContain(
      "is not allowed",
    );
  });

  test("with a certificate: HTTPS with HTTP/2 and HSTS, and plain HTTP redirected to HTTPS", async () => {
    const root = fakeBuild({ "home/index.html": home });
    const certDir = tempDir();
    const cert = path.join(certDir, "cert.pem");
    const key = path.join(certDir, "key.pem");
    const openssl = spawnSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=localhost",
        "-keyout",
        key,
        "-out",
        cert,
      ],
      { encoding: "utf8" },
    );
    if (openssl.status !== 0) throw new Error(`openssl: ${openssl.stderr}`);
    fs.chmodSync(key, 0o644);
    const httpsPort = await freePort();
    const httpPort = await freePort();
    const out = path.join(tempDir(), "conf");
    const rendered = node([
      "deploy/nginx/render.ts",
      "--standalone",
      "--workers",
      "1",
      "--root",
      root,
      "--out",
      out,
      "--listen",
      `127.0.0.1:${httpsPort}`,
      "--tls-cert",
      cert,
      "--tls-key",
      key,
      "--http-redirect",
      `127.0.0.1:${httpPort}`,
      "--server-name",
      "www.example.com",
    ]);
    expect(rendered.status).toBe(0);
    const nginx = run(NGINX, ["-p", out, "-c", "nginx.conf", "-e", path.join(out, "logs", "error.log")]);
    procs.push(nginx);

    const get = (p: string) =>
      new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = https.get(
          { host: "127.0.0.1", port: httpsPort, path: p, rejectUnauthorized: false, agent: false, timeout: 5_000 },
          (res) => {
            res.resume();
            res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers }));
          },
        );
        req.on("error", reject);
      });
    let answer: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 100 && !answer; i += 1) {
      if (nginx.child.exitCode !== null) throw new Error(`nginx exited: ${nginx.output()}`);
      answer = await get("/home").catch(() => undefined);
      if (!answer) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer?.status).toBe(200);
    expect(answer?.headers["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
    // HTTP/2 is offered: a client that proposes h2 gets it.
    const alpn = await new Promise<string | false>((resolve, reject) => {
      const socket = tls.connect(
        { host: "127.0.0.1", port: httpsPort, rejectUnauthorized: false, ALPNProtocols: ["h2", "http/1.1"] },
        () => {
          resolve(socket.alpnProtocol ?? false);
          socket.end();
        },
      );
      socket.on("error", reject);
    });
    expect(alpn).toBe("h2");

    const plain = await request(`http://127.0.0.1:${httpPort}/services?x=1`, { headers: { host: "www.example.com" } });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe("https://www.example.com/services?x=1");
    // The configured name, never the Host header the client sent.
    const forged = await request(`http://127.0.0.1:${httpPort}/home`, { headers: { host: "evil.example" } });
    expect(forged.status).toBe(301);
    expect(forged.headers.location).toBe("https://www.example.com/home");
    await stopProc(nginx, "SIGQUIT", 5_000);
  }, 60_000);
  test("--acme-webroot: the CA's HTTP-01 challenges are answered on plain HTTP (each --http-redirect address) before its redirect to HTTPS, and on the site's server", async () => {
    const root = fakeBuild({ "home/index.html": home });
    const certDir = tempDir();
    const cert = path.join(certDir, "cert.pem");
    const key = path.join(certDir, "key.pem");
    const files = ["-keyout", key, "-out", cert];
    const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"];
    const openssl = spawnSync(
      "openssl",
      ["req", "-x509", ...ec, "-nodes", "-days", "1", "-subj", "/CN=www.example.com", ...files],
      {
        encoding: "utf8",
      },
    );
    if (openssl.status !== 0) throw new Error(`openssl: ${openssl.stderr}`);
    fs.chmodSync(key, 0o644);
    // What the certificate client writes (lego --http.webroot): <webroot>/.well-known/acme-challenge/<token>.
    const webroot = path.join(tempDir(), "acme-challenge");
    fs.mkdirSync(path.join(webroot, ".well-known", "acme-challenge"), { recursive: true });
    fs.writeFileSync(path.join(webroot, ".well-known", "acme-challenge", "tok-EN_1"), "tok-EN_1.thumbprint");
    const httpsPort = await freePort();
    const httpPort = await freePort();
    // Two plain-HTTP addresses (as 80 and [::]:80 on a server with IPv6, where a CA may come by either).
    const secondHttpPort = await freePort();
    const out = path.join(tempDir(), "conf");
    const args = ["deploy/nginx/render.ts", "--standalone", "--workers", "1", "--root", root, "--out", out];
    const tlsArgs = ["--listen", `127.0.0.1:${httpsPort}`, "--tls-cert", cert, "--tls-key", key];
    const redirect = ["--http-redirect", `127.0.0.1:${httpPort}`, "--server-name", "www.example.com"];

    // Without it: nothing of the kind, and the challenge's path is redirected like any other.
    expect(node([...args, ...tlsArgs, ...redirect]).status).toBe(0);
    expect(fs.readFileSync(path.join(out, "cyrus.conf"), "utf8")).not.toContain("acme-challenge/ {");

    const second = ["--http-redirect", `127.0.0.1:${secondHttpPort}`];
    expect(node([...args, ...tlsArgs, ...redirect, ...second, "--acme-webroot", webroot]).status).toBe(0);
    const site = fs.readFileSync(path.join(out, "cyrus.conf"), "utf8");
    expect(site.match(/location \^~ \/\.well-known\/acme-challenge\/ \{\n\s+root (\S+);/g)).toEqual([
      expect.stringContaining(`root ${webroot};`),
      expect.stringContaining(`root ${webroot};`),
    ]);
    const nginx = run(NGINX, ["-p", out, "-c", "nginx.conf", "-e", path.join(out, "logs", "error.log")]);
    procs.push(nginx);
    const challenge = `http://127.0.0.1:${httpPort}/.well-known/acme-challenge/tok-EN_1`;
    let answer: Awaited<ReturnType<typeof request>> | undefined;
    for (let i = 0; i < 100 && !answer; i += 1) {
      if (nginx.child.exitCode !== null) throw new Error(`nginx exited: ${nginx.output()}`);
      answer = await request(challenge, { headers: { host: "www.example.com" } }).catch(() => undefined);
      if (!answer) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer?.status).toBe(200);
    expect(answer?.headers["content-type"]).toBe("text/plain");
    expect(answer?.body.toString()).toBe("tok-EN_1.thumbprint");
    // A token that is not there is a 404, not a redirect; everything else still moves to HTTPS.
    const onSecond = await request(challenge.replace(`:${httpPort}/`, `:${secondHttpPort}/`), {
      headers: { host: "www.example.com" },
    });
    expect({ status: onSecond.status, body: onSecond.body.toString() }).toEqual({
      status: 200,
      body: "tok-EN_1.thumbprint",
    });
    const missing = await request(`http://127.0.0.1:${httpPort}/.well-known/acme-challenge/other`, {
      headers: { host: "www.example.com" },
    });
    expect(missing.status).toBe(404);
    const page = await request(`http://127.0.0.1:${httpPort}/services?x=1`, { headers: { host: "evil.example" } });
    expect(page.status).toBe(301);
    expect(page.headers.location).toBe("https://www.example.com/services?x=1");
    const other = await request(`http://127.0.0.1:${httpPort}/.well-known/security.txt`, {
      headers: { host: "www.example.com" },
    });
    expect(other.status).toBe(301);
    // The site's own server answers it too (a CA that followed a redirect to HTTPS, or a site on plain HTTP).
    const overTls = await new Promise<{ status: number; body: string; hsts: unknown }>((resolve, reject) => {
      const req = https.get(
        {
          host: "127.0.0.1",
          port: httpsPort,
          path: "/.well-known/acme-challenge/tok-EN_1",
          servername: "www.example.com",
          rejectUnauthorized: false,
          agent: false,
          timeout: 5_000,
        },
        (res) => {
          let body = "";
          res.on("data", (chunk: Buffer) => (body += chunk.toString()));
          res.on("end", () =>
            resolve({ status: res.statusCode!, body, hsts: res.headers["strict-transport-security"] }),
          );
        },
      );
      req.on("error", reject);
    });
    expect(overTls).toEqual({ status: 200, body: "tok-EN_1.thumbprint", hsts: "max-age=63072000; includeSubDomains" });
    await stopProc(nginx, "SIGQUIT", 5_000);
  }, 60_000);
});
