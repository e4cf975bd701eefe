/**
 * deploy/server/certificates end to end on loopback, against Pebble (Let's Encrypt's test CA, Debian's
 * package) with lego as the client (docs/server-reference.md, "Certificates"): run as root into a temporary
 * --root whose cyrus-acme and cyrus-web are the tests' own unprivileged users, with nginx run as
 * cyrus-web through the module check as cyrus-nginx.service runs it (with CAP_NET_BIND_SERVICE only),
 * on the configuration render.ts writes for a server (TLS, --http-redirect, --acme-webroot). The
 * plain-HTTP port, where Pebble validates, is below 1024 as port 80 is: only root, or a process given
 * CAP_NET_BIND_SERVICE, may listen there. In order: set-up before nginx runs obtains the first
 * certificate at once with lego's own HTTP server there (as cyrus-acme); nginx starts on it and serves
 * it (a chain Pebble's root verifies); a run with nothing due changes nothing; a forced renewal goes
 * through nginx's challenge folder and serves a new certificate and key; the port held by something
 * else, no capability to give, the CA down (before the first certificate: the placeholder stays; after:
 * nginx keeps the last one), and nginx not serving the challenge folder fail with a line on stderr,
 * exit code 1 and the state file doctor reads.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { freePort } from "../support/serve";
import { request } from "./support/http";
import { startPebble, type Pebble } from "./support/pebble";
import { systemUser, WEB_TEST_USER, type ReleaseUser } from "./support/release-user";
import { NGINX, projectRoot, run, stopProc, type Proc } from "./support/stack";

const isRoot = process.getuid!() === 0;
const DOMAIN = "www.example.com";
const SCRIPT = path.join(projectRoot, "deploy", "server", "certificates");
const MODULE_CHECK = path.join(projectRoot, "deploy", "server", "nginx-module-check");
const ACME_TEST_USER = "cyrus-acme-test";

let base = "";
let root = "";
/** A second server's /, for the first certificate's failures. */
let other = "";
let acme: ReleaseUser;
let web: ReleaseUser;
let pebble: Pebble | undefined;
let nginx: Proc | undefined;
let httpPort = 0;
let httpsPort = 0;
/** cyrus-nginx.service's folders and the release's rendered configuration. */
let runDir = "";
let logDir = "";
let conf = "";
const at = (p: string) => path.join(root, p);
const CERT = "/etc/cyrus/tls/fullchain.pem";
const KEY = "/etc/cyrus/tls/privkey.pem";
const STATE = "/var/lib/cyrus-certificates/last-renewal";
const WEBROOT = "/var/lib/cyrus-acme-challenge";
/** lego's --path: its account, certificates and CSR. */
const ACME_DIR = "/var/lib/cyrus-acme";

/**
 * The script as root runs it, in `inRoot`; asynchronous, so that a server of this process can answer it
 * meanwhile. `wrap`: what runs it (e.g. setpriv with fewer capabilities).
 */
function certificates(
  args: string[],
  inRoot = root,
  wrap: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const command = [...wrap, SCRIPT, "--root", inRoot, ...args];
    const child = spawn(command[0]!, command.slice(1), { stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** cyrus-nginx.service's ExecReload: the module check as nginx's user, then SIGHUP to the master. */
const reloadCommand = () =>
  [
    `setpriv --reuid=${web.uid} --regid=${web.gid} --clear-groups`,
    `perl ${MODULE_CHECK} ${conf}/cyrus-nginx.conf ${runDir}/cyrus-nginx.conf`,
    `&& kill -HUP ${nginx!.child.pid}`,
  ].join(" ");

/** The state file's KEY=VALUE lines. */
function state(inRoot = root): Record<string, string> {
  return Object.fromEntries(
    fs
      .readFileSync(path.join(inRoot, STATE), "utf8")
      .split("\n")
      .filter((line) => /^[a-z_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

const serialOf = (pem: string) => BigInt(`0x${new crypto.X509Certificate(pem).serialNumber}`);
const installedSerial = () => serialOf(fs.readFileSync(at(CERT), "utf8"));
/** A serial number as the state file writes it (openssl's hex, with its leading zeros when it has them). */
const serialText = (serial: bigint) => expect.stringMatching(new RegExp(`^0*${serial.toString(16).toUpperCase()}$`));

/** What nginx's TLS server presents for the domain, and whether `ca` verifies it for that name. */
function served(ca?: string): Promise<{ serial: bigint; issuer: string; authorized: boolean; error?: string }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      { host: "127.0.0.1", port: httpsPort, servername: DOMAIN, rejectUnauthorized: false, ...(ca ? { ca } : {}) },
      () => {
        const peer = socket.getPeerCertificate();
        resolve({
          serial: BigInt(`0x${peer.serialNumber}`),
          issuer: [peer.issuer.CN].flat().join(" "),
          authorized: socket.authorized,
          error: socket.authorizationError?.toString(),
        });
        socket.end();
      },
    );
    socket.setTimeout(5_000, () => socket.destroy(new Error("no TLS answer")));
    socket.on("error", reject);
  });
}

/** Waits (5 s at most) until nginx presents the certificate with this serial number. */
async function servesSerial(serial: bigint): Promise<void> {
  let last: bigint | undefined;
  for (let i = 0; i < 50; i += 1) {
    last = (await served().catch(() => undefined))?.serial;
    if (last === serial) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nginx serves serial ${last?.toString(16)}, not ${serial.toString(16)}:\n${nginx?.output()}`);
}

/** The CA's requests for a challenge token (not the script's probe) that nginx answered 200, from its access log. */
const challengesAnswered = () =>
  fs
    .readFileSync(path.join(logDir, "access.log"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { path: string; status: number })
    .filter((r) => r.status === 200 && /^\/\.well-known\/acme-challenge\/(?!cyrus-probe-)[\w-]+$/.test(r.path)).length;

/** Whether a user can open a file for reading (as that user, not root). */
const canRead = (user: ReleaseUser, file: string) =>
  spawnSync("setpriv", [`--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "cat", file]).status === 0;

const owner = (p: string) => {
  const stat = fs.statSync(at(p));
  return { uid: stat.uid, gid: stat.gid, mode: (stat.mode & 0o7777).toString(8) };
};

/** A server's / with its users: root, and the tests' own as cyrus-acme and cyrus-web. */
function makeRoot(dir: string): void {
  fs.mkdirSync(path.join(dir, "etc"), { recursive: true, mode: 0o755 });
  fs.writeFileSync(
    path.join(dir, "etc/passwd"),
    [
      "root:x:0:0:root:/root:/bin/bash",
      `cyrus-acme:x:${acme.uid}:${acme.gid}::/var/lib/cyrus-acme:/usr/sbin/nologin`,
      `cyrus-web:x:${web.uid}:${web.gid}::/nonexistent:/usr/sbin/nologin`,
      "",
    ].join("\n"),
  );
  fs.writeFileSync(
    path.join(dir, "etc/group"),
    ["root:x:0:", `cyrus-acme:x:${acme.gid}:`, `cyrus-web:x:${web.gid}:`, ""].join("\n"),
  );
}

const listening = (server: net.Server, port: number) =>
  new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => resolve(true));
  });
const closed = (server: net.Server) => new Promise((resolve) => server.close(resolve));

/** A port below 1024 that nothing holds on 127.0.0.1 (as root, the tests may listen there). */
async function freeLowPort(): Promise<number> {
  const start = 600 + crypto.randomInt(300);
  for (let i = 0; i < 400; i += 1) {
    const port = 600 + ((start - 600 + i) % 400);
    const server = net.createServer();
    if (await listening(server, port)) {
      await closed(server);
      return port;
    }
  }
  throw new Error("no free port between 600 and 999 on 127.0.0.1");
}

/** The options set-up gives: Pebble, and nginx's plain-HTTP port on loopback where lego listens too. */
const issueArgs = (http: string, standalone: string) => [
  ...["issue", "--domain", DOMAIN, "--email", "ops@example.com", "--directory", pebble!.directory],
  ...["--ca-bundle", pebble!.caBundle, "--http", http, "--standalone", standalone],
];
const PLACEHOLDER_STAYS =
  "(the self-signed placeholder stays, which browsers and the release's live check refuse; the timer tries again every hour)";
const isPlaceholder = (file: string) => {
  const cert = new crypto.X509Certificate(fs.readFileSync(file));
  return cert.subject === cert.issuer && cert.subject.includes("Placeholder");
};

(isRoot ? describe : describe.skip)("certificates (as root: it runs lego as cyrus-acme and installs the key)", () => {
  beforeAll(async () => {
    if (spawnSync("lego", ["--version"]).error) throw new Error("lego is not installed: apt-get install -y lego");
    acme = systemUser(ACME_TEST_USER);
    web = systemUser(WEB_TEST_USER);
    base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-certificates-"));
    fs.chmodSync(base, 0o755);
    // The server's /: its users are the tests' own unprivileged ones, by the names the script knows.
    root = path.join(base, "root");
    makeRoot(root);
    other = path.join(base, "other");
    makeRoot(other);

    httpPort = await freeLowPort();
    httpsPort = await freePort();
    const pebbleDir = path.join(base, "pebble");
    fs.mkdirSync(pebbleDir, { mode: 0o755 });
    pebble = await startPebble(pebbleDir, httpPort);

    // A made-up build, and nginx's configuration as a release renders it for a server with TLS.
    const site = path.join(base, "public");
    fs.mkdirSync(path.join(site, "home"), { recursive: true });
    fs.writeFileSync(path.join(site, "404.html"), "<!DOCTYPE html><title>Not found</title>");
    fs.writeFileSync(path.join(site, "home", "index.html"), "<!DOCTYPE html><title>Home</title>");
    runDir = path.join(base, "cyrus-web");
    logDir = path.join(base, "cyrus-web-logs");
    const tempDir = path.join(base, "cyrus-web-cache");
    for (const dir of [runDir, logDir, tempDir]) {
      fs.mkdirSync(dir, { mode: 0o750 });
      fs.chownSync(dir, web.uid, web.gid);
    }
    conf = path.join(base, "conf");
    const rendered = spawnSync(
      process.execPath,
      [
        ...[
          "--import",
          "tsx",
          "deploy/nginx/render.ts",
          "--standalone",
          "--workers",
          "1",
          "--root",
          site,
          "--out",
          conf,
        ],
        ...[
          "--listen",
          `127.0.0.1:${httpsPort}`,
          "--server-name",
          DOMAIN,
          "--tls-cert",
          at(CERT),
          "--tls-key",
          at(KEY),
        ],
        ...["--http-redirect", `127.0.0.1:${httpPort}`, "--acme-webroot", at(WEBROOT), "--upstream", "127.0.0.1:9"],
        ...["--run-dir", runDir, "--log-dir", logDir, "--temp-dir", tempDir],
      ],
      { cwd: projectRoot, encoding: "utf8" },
    );
    if (rendered.status !== 0) throw new Error(`render.ts: ${rendered.stderr}`);
  }, 60_000);

  afterAll(async () => {
    await stopProc(nginx, "SIGQUIT", 5_000);
    await pebble?.stop();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  test("set-up before nginx runs: nothing answers on the plain-HTTP port, so lego's own HTTP server there (as cyrus-acme, with CAP_NET_BIND_SERVICE only) obtains the first certificate at once; exit 0", async () => {
    expect(httpPort).toBeLessThan(1024);
    const result = await certificates(issueArgs(`127.0.0.1:${httpPort}`, `127.0.0.1:${httpPort}`));
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // The placeholder first (nginx could start on it), then the certificate at once.
    expect(result.stdout).toContain(`certificates: ${DOMAIN}: a self-signed placeholder installed in /etc/cyrus/tls`);
    expect(result.stdout).toContain(
      `certificates: ${DOMAIN}: nothing answers on 127.0.0.1:${httpPort} (nginx does not run yet): lego answers the ` +
        `CA's challenge with its own HTTP server on 127.0.0.1:${httpPort}, as cyrus-acme with CAP_NET_BIND_SERVICE only\n`,
    );
    expect(result.stdout).toContain(
      `${DOMAIN}: obtaining a certificate from ${pebble!.directory} (the installed certificate is the self-signed placeholder)`,
    );
    expect(result.stdout).toMatch(/certificate installed: serial [0-9A-F]+ from CN = Pebble Intermediate CA/);
    const cert = new crypto.X509Certificate(fs.readFileSync(at(CERT)));
    expect(cert.subject).not.toBe(cert.issuer);
    expect(cert.checkHost(DOMAIN)).toBe(DOMAIN);
    const now = Date.now();
    const record = state();
    expect(record).toMatchObject({
      result: "obtained",
      domain: DOMAIN,
      placeholder: "no",
      failures: "0",
      serial: serialText(installedSerial()),
    });
    expect(Math.abs(Date.parse(record.last_obtained!) - now)).toBeLessThan(60_000);
    // Pebble's 90 days, renewed after 60.
    expect(Date.parse(record.not_after!) - now).toBeGreaterThan(89 * 24 * 3600 * 1000);
    expect(Date.parse(record.renew_after!) - now).toBeGreaterThan(59 * 24 * 3600 * 1000);
    expect(Date.parse(record.renew_after!) - now).toBeLessThan(61 * 24 * 3600 * 1000);
    // lego ran as cyrus-acme: the account it made and the certificate it wrote are cyrus-acme's (on a
    // port below 1024, which that user may listen on only with the capability it was given).
    const made = fs.readdirSync(at("var/lib/cyrus-acme"), { recursive: true }).map(String);
    expect(made).toEqual(expect.arrayContaining(["accounts", `certificates/${DOMAIN}.crt`, "request.csr"]));
    for (const file of made)
      expect([file, fs.statSync(at(path.join("var/lib/cyrus-acme", file))).uid]).toEqual([file, acme.uid]);
    // Who may do what: the key root:cyrus-web 640 in a 750 folder; cyrus-acme writes its own folder and
    // the challenge folder, which cyrus-web reads; root's settings and state.
    expect(owner("etc/cyrus/tls")).toEqual({ uid: 0, gid: web.gid, mode: "750" });
    expect(owner(KEY)).toEqual({ uid: 0, gid: web.gid, mode: "640" });
    expect(owner(CERT)).toEqual({ uid: 0, gid: 0, mode: "644" });
    expect(owner("etc/cyrus/certificates.env")).toEqual({ uid: 0, gid: 0, mode: "600" });
    expect(owner("var/lib/cyrus-acme")).toEqual({ uid: acme.uid, gid: acme.gid, mode: "700" });
    expect(owner(WEBROOT)).toEqual({ uid: acme.uid, gid: web.gid, mode: "2750" });
    expect(owner(STATE)).toEqual({ uid: 0, gid: 0, mode: "644" });
    expect(canRead(web, at(KEY))).toBe(true);
    expect(canRead(acme, at(KEY))).toBe(false);
    // lego had only the request: no key of the site's in cyrus-acme's folder.
    const key = crypto.createPrivateKey(fs.readFileSync(at(KEY)));
    const inAcme = spawnSync("grep", [
      "-rlF",
      key.export({ type: "pkcs8", format: "pem" }).toString().split("\n")[1]!,
      at("var/lib/cyrus-acme"),
    ]);
    expect(inAcme.stdout.toString()).toBe("");
    expect(made.filter((f) => f.endsWith(".key") && f.startsWith("certificates/"))).toEqual([]);
  }, 30_000);

  test("nginx starts on it, as cyrus-web through the module check, and serves it: a chain Pebble's root verifies; plain HTTP goes to HTTPS", async () => {
    const check = spawnSync(
      "setpriv",
      [`--reuid=${web.uid}`, `--regid=${web.gid}`, "--clear-groups", "perl", MODULE_CHECK].concat([
        path.join(conf, "cyrus-nginx.conf"),
        path.join(runDir, "cyrus-nginx.conf"),
      ]),
      { encoding: "utf8" },
    );
    expect(check.status).toBe(0);
    // As cyrus-nginx.service: AmbientCapabilities=CAP_NET_BIND_SERVICE, for its port below 1024.
    nginx = run("setpriv", [
      ...[`--reuid=${web.uid}`, `--regid=${web.gid}`, "--clear-groups"],
      ...["--inh-caps", "+net_bind_service", "--ambient-caps", "+net_bind_service", NGINX, "-p", runDir],
      ...["-c", path.join(runDir, "cyrus-nginx.conf"), "-e", path.join(logDir, "error.log")],
    ]);
    const serial = installedSerial();
    await servesSerial(serial);
    const seen = await served(await pebble!.issuingRoot());
    expect(seen).toMatchObject({ serial, authorized: true });
    expect(seen.issuer).toMatch(/^Pebble Intermediate CA/);
    const page = await request(`http://127.0.0.1:${httpPort}/home`, { headers: { host: DOMAIN } });
    expect(page.status).toBe(301);
    expect(page.headers.location).toBe(`https://${DOMAIN}/home`);
  }, 30_000);

  test("a run with nothing due asks the CA nothing and changes nothing", async () => {
    const before = [fs.readFileSync(at(CERT), "utf8"), fs.readFileSync(at(KEY), "utf8")];
    const result = await certificates(["--reload", reloadCommand(), "renew"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/is not due: renewed after 20\d\d-/);
    expect(result.stdout).not.toContain("obtaining");
    expect([fs.readFileSync(at(CERT), "utf8"), fs.readFileSync(at(KEY), "utf8")]).toEqual(before);
    expect(state()).toMatchObject({ result: "not-due", failures: "0" });
  }, 30_000);

  test("a forced renewal, the timer's once nginx runs: through nginx's challenge folder, a new key and certificate, and nginx, reloaded, serves the new one", async () => {
    const before = installedSerial();
    // The first one was validated by lego's own server, not through nginx.
    expect(challengesAnswered()).toBe(0);
    const key = fs.readFileSync(at(KEY), "utf8");
    // Pebble reuses the account's valid authorization of the first issuance 1 time in 100 even with
    // PEBBLE_AUTHZREUSE=0 (it makes a new one only when rand.Intn(100) > that percentage), and then asks
    // for no challenge. A new account has none to reuse: lego's `run` registers one when its own is gone.
    fs.renameSync(at(`${ACME_DIR}/accounts`), at(`${ACME_DIR}/accounts-of-the-first`));
    const result = await certificates(["--reload", reloadCommand(), "renew", "--force"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `${DOMAIN}: nginx serves the challenge folder on 127.0.0.1:${httpPort}: the CA's challenge is answered from ${WEBROOT}\n`,
    );
    expect(result.stdout).toContain(`${DOMAIN}: obtaining a certificate from ${pebble!.directory} (--force)`);
    expect(result.stdout).not.toContain("its own HTTP server");
    expect(result.stdout).toContain("nginx reloaded");
    const serial = installedSerial();
    expect(serial).not.toBe(before);
    expect(fs.readFileSync(at(KEY), "utf8")).not.toBe(key);
    // Pebble validated through nginx's plain-HTTP server (its access log).
    expect(challengesAnswered()).toBeGreaterThan(0);
    await servesSerial(serial);
    expect((await served(await pebble!.issuingRoot())).authorized).toBe(true);
    expect(owner(KEY)).toEqual({ uid: 0, gid: web.gid, mode: "640" });
    expect(canRead(acme, at(KEY))).toBe(false);
    expect(state()).toMatchObject({ result: "obtained", placeholder: "no", failures: "0" });
  }, 60_000);

  test("before the first certificate, the plain-HTTP port held by something that is not nginx serving the challenge folder: said plainly, the placeholder stays", async () => {
    // Nothing answers where nginx would (the probe), and something else holds the port lego's own server needs.
    const holder = http.createServer((_req, res) => res.end("another server"));
    const [nothing, held] = [await freePort(), await freePort()];
    await new Promise<void>((resolve) => holder.listen(held, "127.0.0.1", resolve));
    try {
      const result = await certificates(issueArgs(`127.0.0.1:${nothing}`, `127.0.0.1:${held}`), other);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `certificates: ${DOMAIN}: renewal FAILED: nothing answers on 127.0.0.1:${nothing}, and lego's own HTTP server ` +
          `could not listen on 127.0.0.1:${held} (listen tcp 127.0.0.1:${held}: bind: address already in use): ` +
          `something else holds port ${held} and does not serve ${WEBROOT} (ss -ltnp 'sport = :${held}' names it): ` +
          `stop it, or make it nginx with render.ts --acme-webroot ${WEBROOT} ${PLACEHOLDER_STAYS}\n`,
      );
      expect(isPlaceholder(path.join(other, CERT))).toBe(true);
      expect(state(other)).toMatchObject({ result: "failed", placeholder: "yes", failures: "1" });
      expect(state(other).message).toContain("could not listen on");
    } finally {
      await closed(holder);
    }
  }, 30_000);

  test("before the first certificate, a run that has no CAP_NET_BIND_SERVICE to give lego (an older unit's bounding set): said, the CA not asked", async () => {
    const nothing = await freePort();
    const result = await certificates(issueArgs(`127.0.0.1:${nothing}`, `127.0.0.1:${nothing}`), other, [
      ...["setpriv", "--bounding-set", "-net_bind_service", "--"],
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `certificates: ${DOMAIN}: renewal FAILED: nothing answers on 127.0.0.1:${nothing}, and this run cannot let ` +
        `lego's own HTTP server listen on 127.0.0.1:${nothing}: CAP_NET_BIND_SERVICE is not among its capabilities ` +
        "(cyrus-certificates.service's CapabilityBoundingSet: run the setup of this version) " +
        `${PLACEHOLDER_STAYS}\n`,
    );
    expect(result.stdout).not.toContain("obtaining");
    expect(state(other)).toMatchObject({ result: "failed", placeholder: "yes", failures: "2" });
  }, 30_000);

  test("a failed renewal (the CA is down): exit 1, a line on stderr, the state file says so; nginx keeps serving the last certificate", async () => {
    const serial = installedSerial();
    const files = [fs.readFileSync(at(CERT), "utf8"), fs.readFileSync(at(KEY), "utf8")];
    await pebble!.stop();
    const result = await certificates(["--reload", reloadCommand(), "renew", "--force"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^certificates: ${DOMAIN.replace(/\./g, "\\.")}: renewal FAILED: lego exited with 1: .*connection refused`,
        "m",
      ),
    );
    const record = state();
    expect(record).toMatchObject({ result: "failed", failures: "1", serial: serialText(serial) });
    expect(record.message).toMatch(
      /^lego exited with 1: .*get directory at 'https:\/\/127\.0\.0\.1:\d+\/dir'.*connection refused/,
    );
    expect([fs.readFileSync(at(CERT), "utf8"), fs.readFileSync(at(KEY), "utf8")]).toEqual(files);
    expect(fs.readdirSync(at("etc/cyrus/tls")).sort()).toEqual(["fullchain.pem", "privkey.pem"]);
    await servesSerial(serial);
  }, 30_000);

  test("before the first certificate, the CA out of reach: exit 1, said, and the placeholder stays (setup's PROBLEM)", async () => {
    const nothing = await freePort();
    const result = await certificates(issueArgs(`127.0.0.1:${nothing}`, `127.0.0.1:${nothing}`), other);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("lego answers the CA's challenge with its own HTTP server");
    expect(result.stderr).toMatch(
      new RegExp(
        `^certificates: ${DOMAIN.replace(/\./g, "\\.")}: renewal FAILED: lego exited with 1: .*connection refused`,
        "m",
      ),
    );
    expect(result.stderr).toContain(` ${PLACEHOLDER_STAYS}\n`);
    expect(isPlaceholder(path.join(other, CERT))).toBe(true);
    const record = state(other);
    expect(record).toMatchObject({ result: "failed", placeholder: "yes", failures: "3", last_obtained: "" });
    expect(record.message).toMatch(/^lego exited with 1: .*connection refused.* \(the self-signed placeholder stays/);
  }, 30_000);

  test("a failed renewal (nginx does not serve the challenge folder there): said plainly, before the CA is asked", async () => {
    // What answers on that address redirects everything, as nginx without --acme-webroot does.
    const other = http.createServer((req, res) => {
      res.writeHead(301, { location: `https://${DOMAIN}${req.url}` });
      res.end();
    });
    const port = await freePort();
    await new Promise<void>((resolve) => other.listen(port, "127.0.0.1", resolve));
    try {
      const configured = await certificates([
        ...["configure", "--domain", DOMAIN, "--email", "ops@example.com", "--directory", pebble!.directory],
        ...["--ca-bundle", pebble!.caBundle, "--http", `127.0.0.1:${port}`],
      ]);
      expect(configured.code).toBe(0);
      const result = await certificates(["renew", "--force"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `certificates: ${DOMAIN}: renewal FAILED: nginx does not serve ${WEBROOT}: http://${DOMAIN}/.well-known/acme-challenge/<probe> on 127.0.0.1:${port} answered "HTTP/1.1 301 Moved Permanently", not the probe file (render.ts --acme-webroot ${WEBROOT} in RELEASE_NGINX_ARGS, then release)`,
      );
      expect(result.stdout).not.toContain("obtaining");
      // configure above did not fail: this is the first failure since.
      expect(state()).toMatchObject({ result: "failed", failures: "1" });
      // The probe file is gone again.
      expect(spawnSync("find", [at(WEBROOT), "-type", "f"], { encoding: "utf8" }).stdout).toBe("");
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  }, 30_000);
  test("a link where a folder should be is refused, never followed, and recorded for doctor too", async () => {
    const real = at("etc/cyrus/tls.real");
    fs.renameSync(at("etc/cyrus/tls"), real);
    fs.symlinkSync(real, at("etc/cyrus/tls"));
    try {
      const before = fs.readdirSync(real).map((name) => [name, fs.readFileSync(path.join(real, name), "utf8")]);
      const result = await certificates(["renew", "--force"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        "certificates: refused: /etc/cyrus/tls is a symbolic link, not a folder (move it aside)\n",
      );
      expect(state()).toMatchObject({ result: "failed", failures: "2" });
      expect(state().message).toBe("refused: /etc/cyrus/tls is a symbolic link, not a folder (move it aside)");
      expect(fs.readdirSync(real).map((name) => [name, fs.readFileSync(path.join(real, name), "utf8")])).toEqual(
        before,
      );
    } finally {
      fs.unlinkSync(at("etc/cyrus/tls"));
      fs.renameSync(real, at("etc/cyrus/tls"));
    }
  }, 30_000);
});

test("the timer's unit runs the installed script hourly, with write access to exactly the script's folders", () => {
  const unit = (name: string) => fs.readFileSync(path.join(projectRoot, "deploy", "systemd", name), "utf8");
  const value = (text: string, key: string) => text.match(new RegExp(`^${key}=(.*)$`, "m"))?.[1];
  const service = unit("cyrus-certificates.service");
  const script = fs.readFileSync(SCRIPT, "utf8");
  const constant = (name: string) => script.match(new RegExp(`^${name}=(\\S+)$`, "m"))?.[1];
  expect(value(service, "ExecStart")).toBe("/usr/local/lib/cyrus/certificates renew");
  // Not run before the setup was given a domain.
  expect(value(service, "ConditionPathExists")).toBe(constant("SETTINGS"));
  const folders = ["TLS_DIR", "STATE_DIR", "ACME_DIR", "WEBROOT"].map((name) => constant(name)!);
  expect(
    value(service, "ReadWritePaths")
      ?.split(" ")
      .map((p) => p.replace(/^-/, ""))
      .sort(),
  ).toEqual(folders.sort());
  expect(value(service, "User")).toBeUndefined();
  // lego's own HTTP server on port 80 before the first release: the script hands it that one
  // capability, which it can only do while the unit's bounding set holds it.
  expect(value(service, "CapabilityBoundingSet")?.split(" ")).toContain("CAP_NET_BIND_SERVICE");
  expect(value(service, "CapabilityBoundingSet")?.split(" ")).not.toContain("CAP_DAC_OVERRIDE");
  const timer = unit("cyrus-certificates.timer");
  expect(value(timer, "OnUnitInactiveSec")).toBe("1h");
  expect(value(timer, "WantedBy")).toBe("timers.target");
});
