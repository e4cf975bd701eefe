/**
 * A place to release into, as a server has it, on loopback: a bare git repository made from this
 * checkout's HEAD (the git host), a clone of it to push commits from (an editor), a release root,
 * and Debian's nginx whose http block includes <root>/current/nginx/cyrus[.]conf as the docs say,
 * started before the first release (the glob matches nothing until then), and the site's service
 * behind it with the push hook on (its requests folder is the release's). Reload is nginx's own
 * `-s reload`; the "service restart" only notes that it ran; `npm ci` fails loudly (so a test sees
 * it was never needed).
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BROTLI_STATIC_MODULE } from "../../../deploy/nginx/render";
import { freePort } from "../../support/serve";
import { NGINX, projectRoot, run, stopProc, waitFor, type Proc } from "./stack";

export interface ReleaseRun {
  code: number | string;
  output: string;
  seconds: number;
}

export interface ReleaseSite {
  base: string;
  root: string;
  origin: string;
  /** Where the service would write that a release is wanted (RELEASE_REQUESTS_DIR). */
  requests: string;
  /**
   * A push of `commit` to main as GitHub announces it, through nginx to the service's hook, signed
   * with the hook's secret (or `secret`); returns the HTTP status.
   */
  hookPush(commit: string, secret?: string): Promise<number>;
  /** The service's ENQUIRY_DATA_DIR (SQLite). */
  enquiries: string;
  /** The service's own address (not through nginx). */
  serviceUrl: string;
  /** Set when the release ran `npm ci`. */
  npmCiMarker: string;
  /** One line per service restart. */
  restarts(): string[];
  /** Edits a file of the editor's clone, commits and pushes it; returns the commit. */
  push(file: string, edit: (text: string) => string, message: string): string;
  /** npm run release -- <args>, with the settings of this place (and `extraEnv` over them). */
  release(args?: string[], extraEnv?: NodeJS.ProcessEnv): Promise<ReleaseRun>;
  /** The same, started: its pid (to kill it) and its end. */
  startRelease(args?: string[], extraEnv?: NodeJS.ProcessEnv): { pid: number; done: Promise<ReleaseRun> };
  page(route: string): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

const git = (cwd: string, args: string[]) => {
  const result = spawnSync("git", ["-c", "user.name=Editor", "-c", "user.email=editor@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
};

export async function startReleaseSite(): Promise<ReleaseSite> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-release-"));
  // nginx's workers run as nobody when the tests run as root: they must reach the releases.
  fs.chmodSync(base, 0o755);
  const repo = path.join(base, "site.git");
  const work = path.join(base, "work");
  const root = path.join(base, "root");
  const conf = path.join(base, "nginx");
  git(base, ["clone", "--quiet", "--bare", projectRoot, repo]);
  git(base, ["clone", "--quiet", repo, work]);
  fs.mkdirSync(path.join(root, "shared"), { recursive: true });
  // The build's production settings, from the settings file as on a server.
  fs.writeFileSync(path.join(root, "shared", "release.env"), "SITE_URL=https://www.example.com\nRELEASE_KEEP=5\n");

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  for (const dir of ["logs", "temp"]) fs.mkdirSync(path.join(conf, dir), { recursive: true });
  fs.chmodSync(path.join(conf, "temp"), 0o755);
  const brotli = fs.existsSync(BROTLI_STATIC_MODULE);
  fs.writeFileSync(
    path.join(conf, "nginx.conf"),
    [
      "daemon off;",
      brotli ? `load_module ${BROTLI_STATIC_MODULE};` : "",
      "worker_processes 1;",
      `pid ${conf}/nginx.pid;`,
      `error_log ${conf}/logs/error.log warn;`,
      "events { worker_connections 256; }",
      "http {",
      ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${conf}/temp/${t};`),
      "  access_log off;",
      `  include ${root}/current/nginx/cyrus[.]conf;`,
      "}",
      "",
    ].join("\n"),
  );
  const nginxArgs = ["-p", conf, "-c", "nginx.conf", "-e", path.join(conf, "logs", "error.log")];
  const nginx: Proc = run(NGINX, nginxArgs);
  // No server yet: wait until the master has written its pid (it is then ready for a reload).
  for (let i = 0; i < 100 && !fs.existsSync(path.join(conf, "nginx.pid")); i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!fs.existsSync(path.join(conf, "nginx.pid"))) throw new Error(`nginx did not start:\n${nginx.output()}`);

  const npmCiMarker = path.join(base, "npm-ci-ran");
  const requests = path.join(base, "requests");
  fs.mkdirSync(requests);
  // The site's service, where nginx's --upstream points, as systemd runs it: a process started again
  // whenever it exits (Restart=always), until the place stops. The push hook notes releases in
  // `requests`. The release "restarts" it as systemctl restart does: SIGTERM, then the new one.
  const upstream = await freePort();
  const hookSecret = crypto.randomBytes(24).toString("hex");
  const enquiries = path.join(base, "enquiries");
  const servicePid = path.join(base, "service.pid");
  const serviceEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ENQUIRY_DATA_DIR: enquiries,
    ENQUIRY_HOST: "127.0.0.1",
    ENQUIRY_PORT: String(upstream),
    ENQUIRY_TRUST_PROXY: "1",
    ENQUIRY_RATE_LIMIT: "100000",
    SMTP_URL: "",
    ENQUIRY_TO: "",
    DATABASE_URL: "",
    RELEASE_HOOK_SECRET: hookSecret,
    RELEASE_REQUESTS_DIR: requests,
    RELEASE_BRANCH: "main",
  };
  let service: Proc;
  let stopping = false;
  const startService = async (): Promise<void> => {
    service = run(process.execPath, ["--import", "tsx", "src/enquiry-receiver/bin/enquiry-server.ts"], {
      env: serviceEnv,
    });
    fs.writeFileSync(servicePid, String(service.child.pid));
    void service.exited.then(() => {
      if (!stopping)
        startService().catch((error: Error) => console.error(`the service did not start again: ${error.message}`));
    });
    await waitFor(`http://127.0.0.1:${upstream}/healthz`, 200, 300, () => service.child.exitCode === null);
  };
  await startService();
  const restartLog = path.join(base, "restarts.log");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    GATSBY_TELEMETRY_DISABLED: "1",
    GATSBY_ENQUIRY_API: "",
    RELEASE_ROOT: root,
    RELEASE_REPO: repo,
    RELEASE_LIVE_URL: origin,
    RELEASE_LIVE_TIMEOUT_SECONDS: "10",
    RELEASE_REQUESTS_DIR: requests,
    RELEASE_NGINX_ARGS: `--listen 127.0.0.1:${port} --upstream 127.0.0.1:${upstream} --workers 1 --api-rate 1000r/s --api-burst 1000 --api-conn-limit 100`,
    RELEASE_NGINX_RELOAD: `${NGINX} ${nginxArgs.join(" ")} -s reload`,
    // systemctl restart: the old one stopped (it finishes what it has), the new one started.
    RELEASE_SERVICE_RESTART: `echo {id} >> ${restartLog}; old=$(cat ${servicePid}); kill -TERM $old; while kill -0 $old 2>/dev/null; do sleep 0.05; done`,
    RELEASE_NPM_CI: `touch ${npmCiMarker}; echo 'npm ci is not expected in these tests' >&2; exit 1`,
    // Test-only: the first release hard-links this checkout's node_modules (same lockfiles).
    RELEASE_SEED_NODE_MODULES: projectRoot,
  };

  const startRelease: ReleaseSite["startRelease"] = (args = [], extraEnv = {}) => {
    const started = Date.now();
    const proc = run(process.execPath, ["--import", "tsx", "tools/release/cli.ts", ...args], {
      env: { ...env, ...extraEnv },
    });
    // Bounded: a cold build on a loaded 2-core machine takes minutes, never this long.
    const timer = setTimeout(() => proc.child.kill("SIGKILL"), 14 * 60_000);
    const done = proc.exited.then((code) => {
      clearTimeout(timer);
      return { code, output: proc.output(), seconds: (Date.now() - started) / 1000 };
    });
    return { pid: proc.child.pid!, done };
  };

  return {
    base,
    root,
    origin,
    requests,
    enquiries,
    serviceUrl: `http://127.0.0.1:${upstream}`,
    npmCiMarker,
    async hookPush(commit, secret = hookSecret) {
      const body = JSON.stringify({ ref: "refs/heads/main", after: commit, before: "0".repeat(40), commits: [] });
      const signature = crypto.createHmac("sha256", secret).update(body).digest("hex");
      const res = await fetch(`${origin}/hooks/push/github`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-github-event": "push",
          "x-hub-signature-256": `sha256=${signature}`,
        },
        body,
      });
      return res.status;
    },
    restarts: () => (fs.existsSync(restartLog) ? fs.readFileSync(restartLog, "utf8").trim().split("\n") : []),
    push(file, edit, message) {
      const target = path.join(work, file);
      fs.writeFileSync(target, edit(fs.readFileSync(target, "utf8")));
      git(work, ["commit", "--quiet", "-am", message]);
      git(work, ["push", "--quiet", "origin", "HEAD"]);
      return git(work, ["rev-parse", "HEAD"]);
    },
    startRelease,
    release: (args = [], extraEnv = {}) => startRelease(args, extraEnv).done,
    async page(route) {
      await waitFor(`${origin}${route}`, 200, 50).catch(() => undefined);
      const res = await fetch(`${origin}${route}`, { redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    async stop() {
      await stopProc(nginx, "SIGQUIT", 5_000);
      stopping = true;
      await stopProc(service, "SIGTERM", 15_000);
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}
