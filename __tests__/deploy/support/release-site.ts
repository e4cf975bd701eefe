/**
 * A place to release into, as a server has it, on loopback: a bare git repository made from this
 * checkout's HEAD (the git host), a clone of it to push commits from (an editor), a release root,
 * nginx as the server runs it (./site-nginx.ts: as its own user from <root>/current, started by the
 * first release; or, as installed before that, root's nginx including the release's configuration),
 * and the site's service behind it with the push hook on (its requests folder is the release's).
 * `npm ci` fails loudly (so a test sees it was never needed).
 *
 * The release runs as an unprivileged user of its own (./release-user.ts), owning the release root
 * and the requests folder (setgid, as on a server), from its own checkout. With `asInstalled`, the
 * service and the releases after the first run from `current` instead, by the paths that a server's
 * installed systemd units name (`asInstalled.service`, `asInstalled.release`), as on a server. nginx
 * and the service stay this process's, as systemd's are root's: the release's reload and restart
 * commands ask this process for exactly those two things over loopback, as `sudo systemctl
 * reload-or-restart cyrus-nginx` and `sudo systemctl restart cyrus-enquiry` ask root through the
 * sudo rule on a server.
 */
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../support/serve";
import { chownTree, ownCheckout, releaseUser, type ReleaseUser } from "./release-user";
import { startSiteNginx, type SiteNginx } from "./site-nginx";
import { projectRoot, run, stopProc, waitFor, type Proc } from "./stack";

/** The release status file (shared/release-status.json), as far as the tests read it. */
export interface StatusFile {
  state: string;
  live?: { commit: string; title: string };
  underway?: { commit: string; step: string };
  lastFailure?: { commit: string; step: string; message: string };
}

/** A failed release shows its own output's end, not just its exit code. */
export function expectExit(result: { code: number | string; output: string }, code: number): void {
  if (result.code !== code) {
    throw new Error(
      `exit code ${result.code}, expected ${code}; output:\n${result.output.split("\n").slice(-60).join("\n")}`,
    );
  }
}

export interface ReleaseRun {
  code: number | string;
  output: string;
  seconds: number;
}

/** What a server's installed units start from `current` (WorkingDirectory=/srv/cyrus/current). */
export interface InstalledUnits {
  /** The service's entry (cyrus-enquiry.service's ExecStart). */
  service: string;
  /** The release runner's entry (cyrus-release.service's and cyrus-release-poll.service's). */
  release: string;
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
  /** The release user's checkout of this repository, whose node_modules seed the first release. */
  seedCheckout: string;
  /** One line per service restart. */
  restarts(): string[];
  /** Edits a file of the editor's clone, commits and pushes it; returns the commit. */
  push(file: string, edit: (text: string) => string, message: string): string;
  /** Who the releases run as (never root). */
  user: ReleaseUser;
  /** nginx in front, as the server runs it (./site-nginx.ts). */
  nginx: SiteNginx;
  /** RELEASE_NGINX_RELOAD run by the release user, as a release runs it: its exit code. */
  documentedReload(): Promise<number | string>;
  /** npm run release -- <args>, as `user`, with the settings of this place (and `extraEnv` over them). */
  release(args?: string[], extraEnv?: NodeJS.ProcessEnv): Promise<ReleaseRun>;
  /**
   * deploy/release/first-release as `user`, as a new server's first release runs (from the project's
   * copy that sets the server up: here the user's checkout), with the settings of this place.
   */
  firstRelease(): Promise<ReleaseRun>;
  /** The same, started: its pid (to kill it) and its end; `asInvoker` runs it as this process's user. */
  startRelease(
    args?: string[],
    extraEnv?: NodeJS.ProcessEnv,
    asInvoker?: boolean,
  ): { pid: number; done: Promise<ReleaseRun> };
  /**
   * A process of `user` that holds the release lock as a release under way does
   * (support/lock-process.ts, from the user's checkout), once it holds it: its pid, and its end,
   * letting go or killed with SIGKILL.
   */
  holdLock(): Promise<LockHolding>;
  page(route: string): Promise<{ status: number; text: string }>;
  stop(): Promise<void>;
}

export interface LockHolding {
  pid: number;
  release(): Promise<void>;
  kill(): Promise<void>;
}

const git = (cwd: string, args: string[]) => {
  const result = spawnSync("git", ["-c", "user.name=Editor", "-c", "user.email=editor@example.com", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout.trim();
};

export async function startReleaseSite(asInstalled?: InstalledUnits): Promise<ReleaseSite> {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-release-"));
  // nginx's workers run as nobody when the tests run as root: they must reach the releases.
  fs.chmodSync(base, 0o755);
  const repo = path.join(base, "site.git");
  const work = path.join(base, "work");
  const root = path.join(base, "root");
  git(base, ["clone", "--quiet", "--bare", projectRoot, repo]);
  git(base, ["clone", "--quiet", repo, work]);
  fs.mkdirSync(path.join(root, "shared"), { recursive: true });
  // The build's production settings, from the settings file as on a server (mode 600: the release
  // refuses a settings file others may read).
  fs.writeFileSync(path.join(root, "shared", "release.env"), "SITE_URL=https://www.example.com\nRELEASE_KEEP=5\n", {
    mode: 0o600,
  });
  const user = releaseUser();
  chownTree(root, user);
  const { tool, nodeDir } = sharedCheckout(user);
  // Its HOME (npm's and git's files). The git host here is a path owned by root: git refuses a
  // repository of another owner unless it is named safe (on a server the host is a URL).
  const home = path.join(base, "home");
  fs.mkdirSync(home);
  fs.writeFileSync(path.join(home, ".gitconfig"), `[safe]\n\tdirectory = ${repo}\n`);
  chownTree(home, user);

  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // As installed before nginx ran as its own user, root's nginx includes the release's configuration.
  const nginx = await startSiteNginx(base, root, asInstalled !== undefined);

  const npmCiMarker = path.join(home, "npm-ci-ran");
  const requests = path.join(base, "requests");
  fs.mkdirSync(requests);
  // The service writes its notes here, the release user takes them: shared/release-requests's rights.
  chownTree(requests, user);
  fs.chmodSync(requests, 0o2770);
  // The site's service, where nginx's --upstream points, as systemd runs it: a process started again
  // whenever it exits (Restart=always), until the place stops. The push hook notes releases in
  // `requests`. The release "restarts" it as systemctl restart does: SIGTERM, then the new one.
  const upstream = await freePort();
  const hookSecret = crypto.randomBytes(24).toString("hex");
  const enquiries = path.join(base, "enquiries");
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
  let service: Proc | undefined;
  let stopping = false;
  const current = path.join(root, "current");
  const startService = async (): Promise<void> => {
    const entry = asInstalled?.service ?? "src/site-service/bin/site-service.ts";
    service = run(process.execPath, ["--import", "tsx", entry], {
      env: serviceEnv,
      ...(asInstalled ? { cwd: current } : {}),
    });
    const started = service;
    void started.exited.then(() => {
      if (!stopping)
        startService().catch((error: Error) => {
          if (!stopping) console.error(`the service did not start again: ${error.message}`);
        });
    });
    await waitFor(`http://127.0.0.1:${upstream}/healthz`, 200, 300, () => started.child.exitCode === null && !stopping);
  };
  // As installed, the service runs from `current`: the first release starts it.
  if (!asInstalled) await startService();
  const restartLog = path.join(base, "restarts.log");
  const privileged = await startPrivileged(base, {
    "nginx-reload": () => nginx.reload(),
    // systemctl restart: the old one stopped (it finishes what it has), then the new one started.
    "service-restart": async (id) => {
      fs.appendFileSync(restartLog, `${id}\n`);
      const old = service;
      if (!old) {
        await startService();
        return { ok: true, text: "" };
      }
      old.child.kill("SIGTERM");
      await old.exited;
      return { ok: true, text: "" };
    },
  });
  const asks = (action: string) => `${path.join(nodeDir, "node")} ${privileged.script} ${action}`;
  // The user's environment: nothing of root's npm settings or caches, its own HOME and Node first.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(npm_|XDG_|NODE_OPTIONS$)/i.test(key)),
  );
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOME: home,
    USER: user.name,
    LOGNAME: user.name,
    PATH: `${nodeDir}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    GATSBY_TELEMETRY_DISABLED: "1",
    GATSBY_ENQUIRY_API: "",
    RELEASE_ROOT: root,
    RELEASE_REPO: repo,
    RELEASE_LIVE_URL: origin,
    RELEASE_LIVE_TIMEOUT_SECONDS: "10",
    RELEASE_REQUESTS_DIR: requests,
    RELEASE_NGINX_ARGS: `--listen 127.0.0.1:${port} --upstream 127.0.0.1:${upstream} --workers 1 --api-rate 1000r/s --api-burst 1000 --api-conn-limit 100`,
    RELEASE_NGINX_RELOAD: asks("nginx-reload"),
    ...nginx.env,
    RELEASE_ROOT_NGINX_CONF: nginx.rootConf,
    RELEASE_SERVICE_RESTART: asks("service-restart {id}"),
    RELEASE_NPM_CI: `touch ${npmCiMarker}; echo 'npm ci is not expected in these tests' >&2; exit 1`,
    // Test-only: the first release hard-links its own checkout's node_modules (same lockfiles).
    RELEASE_SEED_NODE_MODULES: tool,
  };

  const startRelease: ReleaseSite["startRelease"] = (args = [], extraEnv = {}, asInvoker = false) => {
    const started = Date.now();
    // As installed, a release runs the live release's runner, once there is one.
    const installed = asInstalled && fs.existsSync(current);
    const entry = installed ? asInstalled.release : "deploy/release/cli.ts";
    const proc = run(path.join(nodeDir, "node"), ["--import", "tsx", entry, ...args], {
      cwd: installed ? current : tool,
      env: { ...env, ...extraEnv },
      ...(asInvoker ? {} : { uid: user.uid, gid: user.gid }),
    });
    // Bounded: a cold build on a loaded 2-core machine takes minutes, never this long.
    const timer = setTimeout(() => proc.child.kill("SIGKILL"), 14 * 60_000);
    const done = proc.exited.then((code) => {
      clearTimeout(timer);
      return { code, output: proc.output(), seconds: (Date.now() - started) / 1000 };
    });
    return { pid: proc.child.pid!, done };
  };

  const firstRelease = async (): Promise<ReleaseRun> => {
    const started = Date.now();
    const proc = run(path.join(tool, "deploy", "release", "first-release"), ["--root", root], {
      cwd: tool,
      env,
      uid: user.uid,
      gid: user.gid,
    });
    const timer = setTimeout(() => proc.child.kill("SIGKILL"), 14 * 60_000);
    const code = await proc.exited;
    clearTimeout(timer);
    return { code, output: proc.output(), seconds: (Date.now() - started) / 1000 };
  };

  const holdLock = async (): Promise<LockHolding> => {
    const child = spawn(
      path.join(nodeDir, "node"),
      [
        "--import",
        "tsx",
        "__tests__/deploy/support/lock-process.ts",
        "take",
        path.join(root, "shared", "release.lock"),
      ],
      { cwd: tool, env, uid: user.uid, gid: user.gid, stdio: ["pipe", "pipe", "pipe"] },
    );
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    for (let i = 0; i < 600 && !output.includes(`took ${child.pid}`); i += 1) {
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!output.includes(`took ${child.pid}`)) {
      child.kill("SIGKILL");
      throw new Error(`the lock holder did not take the lock:\n${output}`);
    }
    return {
      pid: child.pid!,
      release: async () => {
        child.stdin.end();
        await closed;
      },
      kill: async () => {
        child.kill("SIGKILL");
        await closed;
      },
    };
  };

  return {
    base,
    root,
    origin,
    requests,
    enquiries,
    serviceUrl: `http://127.0.0.1:${upstream}`,
    npmCiMarker,
    seedCheckout: tool,
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
    user,
    nginx,
    documentedReload: () =>
      run("sh", ["-c", env.RELEASE_NGINX_RELOAD!], {
        env,
        ...(process.getuid!() === 0 ? { uid: user.uid, gid: user.gid } : {}),
      }).exited,
    startRelease,
    firstRelease,
    holdLock,
    release: (args = [], extraEnv = {}) => startRelease(args, extraEnv).done,
    async page(route) {
      await waitFor(`${origin}${route}`, 200, 50).catch(() => undefined);
      const res = await fetch(`${origin}${route}`, { redirect: "manual" });
      return { status: res.status, text: await res.text() };
    },
    async stop() {
      stopping = true;
      await privileged.close();
      await nginx.stop();
      if (service) await stopProc(service, "SIGTERM", 15_000);
      removeInBackground(base);
      releaseCheckout();
    },
  };
}

/**
 * The release user's own checkout and Node (./release-user.ts), made once for all the places a test
 * file starts (a copy of node_modules is a gigabyte), and removed when the last of them stops.
 */
let checkout: { dir: string; tool: string; nodeDir: string; users: number } | undefined;

function sharedCheckout(user: ReleaseUser): { tool: string; nodeDir: string } {
  if (!checkout) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-release-checkout-"));
    fs.chmodSync(dir, 0o755);
    checkout = { dir, tool: path.join(dir, "checkout"), nodeDir: path.join(dir, "node"), users: 0 };
    ownCheckout(checkout.tool, checkout.nodeDir, user);
  }
  checkout.users += 1;
  return checkout;
}

function releaseCheckout(): void {
  if (!checkout) return;
  checkout.users -= 1;
  if (checkout.users > 0) return;
  removeInBackground(checkout.dir);
  checkout = undefined;
}

/**
 * Removes a place's folder after its tests, without waiting: its releases hold a copy of node_modules
 * each (a gigabyte, 80,000 files), which took this file's suite minutes of disk to delete. The folder
 * is renamed at once (nothing finds it by its name again), then deleted by a process of the lowest CPU
 * and disk priority that outlives the test run if need be.
 */
function removeInBackground(dir: string): void {
  if (!fs.existsSync(dir)) return;
  const doomed = `${dir}.removing`;
  fs.renameSync(dir, doomed);
  const remover = spawn(
    "sh",
    [
      "-c",
      'if command -v ionice >/dev/null; then exec nice -n 19 ionice -c 3 rm -rf "$1"; fi; exec nice -n 19 rm -rf "$1"',
      "sh",
      doomed,
    ],
    { detached: true, stdio: "ignore" },
  );
  remover.unref();
}

type Action = (id: string) => { ok: boolean; text: string } | Promise<{ ok: boolean; text: string }>;

/**
 * What root does for the release user here (the sudo rule's part): a loopback server that runs only
 * the named actions, and a script for the release's settings that asks it (exit 1 when it failed).
 */
async function startPrivileged(
  dir: string,
  actions: Record<string, Action>,
): Promise<{ script: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const action = actions[url.pathname.slice(1)];
    if (req.method !== "POST" || !action) {
      res.writeHead(404).end("no such action\n");
      return;
    }
    void Promise.resolve(action(url.searchParams.get("id") ?? "")).then(
      ({ ok, text }) => res.writeHead(ok ? 200 : 500).end(text),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const script = path.join(dir, "privileged.mjs");
  fs.writeFileSync(
    script,
    `const [action, id = ""] = process.argv.slice(2);
const res = await fetch(\`http://127.0.0.1:${port}/\${action}?id=\${encodeURIComponent(id)}\`, { method: "POST" });
process.stdout.write(await res.text());
process.exitCode = res.ok ? 0 : 1;
`,
  );
  fs.chmodSync(script, 0o644);
  return {
    script,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
