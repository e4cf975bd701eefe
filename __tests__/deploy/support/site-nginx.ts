/**
 * nginx in front of a release root, as a server runs it (docs/server-reference.md). Two setups:
 *
 * - "unit" (today's): root's own nginx (Debian's, here a stand-in folder for /etc/nginx) includes
 *   nothing of the site; cyrus-nginx.service runs nginx as its own user (here `cyrus-web-test`, with
 *   setpriv and only CAP_NET_BIND_SERVICE, as the unit's User= and AmbientCapabilities= do) on
 *   <root>/current/nginx/cyrus-nginx.conf, its pid, logs and temporary files in its own folders (the
 * unit's StateDirectory, LogsDirectory and CacheDirectory, side by side). The documented reload is `systemctl
 * reload-or-restart cyrus-nginx`:
 *   started when it is not running (the first release), else SIGHUP (ExecReload=kill -HUP).
 * - "root include" (servers set up before it): root's nginx includes <root>/current/nginx/cyrus[.]conf
 *   in its http {} block and is reloaded by root (`systemctl reload nginx`), until `takeUpgradeStep()`
 *   does what the docs' upgrade step says: the include removed, root's nginx stopped, the unit started.
 *
 * systemd is not running here: this process does what it would, as root.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BROTLI_STATIC_MODULE } from "../../../deploy/nginx/render";
import { chownTree, systemUser, WEB_TEST_USER, type ReleaseUser } from "./release-user";
import { NGINX, run, stopProc, type Proc } from "./stack";

export interface SiteNginx {
  /** The stand-in for /etc/nginx (RELEASE_ROOT_NGINX_CONF). */
  rootConf: string;
  /** cyrus-nginx's own folders (RELEASE_NGINX_RUN_DIR, _LOG_DIR, _TEMP_DIR). */
  runDir: string;
  logDir: string;
  /** Those three, as the release's settings name them for render.ts. */
  env: Record<string, string>;
  /** nginx's own user. */
  web: ReleaseUser;
  /** The documented reload of the setup in force. */
  reload(): Promise<{ ok: boolean; text: string }>;
  /** The docs' upgrade step "nginx runs as its own user" (root include → unit). */
  takeUpgradeStep(): Promise<void>;
  /** The pid of the master serving the site, if one runs. */
  masterPid(): number | undefined;
  output(): string;
  stop(): Promise<void>;
}

const isRoot = () => process.getuid!() === 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForPid(pidFile: string, proc: Proc): Promise<number> {
  for (let i = 0; i < 100 && !fs.existsSync(pidFile) && proc.child.exitCode === null; i += 1) await sleep(100);
  if (!fs.existsSync(pidFile)) throw new Error(`nginx did not start:\n${proc.output()}`);
  return Number(fs.readFileSync(pidFile, "utf8").trim());
}

export async function startSiteNginx(base: string, releaseRoot: string, rootInclude: boolean): Promise<SiteNginx> {
  const rootConf = path.join(base, "etc-nginx");
  const runDir = path.join(base, "cyrus-web");
  const logDir = path.join(base, "cyrus-web-logs");
  const tempDir = path.join(base, "cyrus-web-cache");
  const web = systemUser(WEB_TEST_USER);
  for (const dir of ["logs", "temp"]) fs.mkdirSync(path.join(rootConf, dir), { recursive: true });
  fs.chmodSync(path.join(rootConf, "temp"), 0o755);
  // The unit's StateDirectory=, LogsDirectory= and CacheDirectory=cyrus-web: mode 0750, its user's.
  for (const dir of [runDir, logDir, tempDir]) {
    fs.mkdirSync(dir, { recursive: true });
    chownTree(dir, web);
    fs.chmodSync(dir, 0o750);
  }

  const writeRootConf = (include: boolean) =>
    fs.writeFileSync(
      path.join(rootConf, "nginx.conf"),
      [
        "daemon off;",
        fs.existsSync(BROTLI_STATIC_MODULE) ? `load_module ${BROTLI_STATIC_MODULE};` : "",
        "worker_processes 1;",
        `pid ${rootConf}/nginx.pid;`,
        `error_log ${rootConf}/logs/error.log warn;`,
        "events { worker_connections 256; }",
        "http {",
        ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${rootConf}/temp/${t};`),
        "  access_log off;",
        include ? `  include ${releaseRoot}/current/nginx/cyrus[.]conf;` : "",
        "}",
        "",
      ].join("\n"),
    );
  writeRootConf(rootInclude);
  const rootArgs = ["-p", rootConf, "-c", "nginx.conf", "-e", path.join(rootConf, "logs", "error.log")];

  let rootNginx: Proc | undefined;
  let unit: Proc | undefined;
  let unitPid: number | undefined;
  if (rootInclude) {
    rootNginx = run(NGINX, rootArgs);
    // No server yet (the glob matches nothing): ready once the master has written its pid.
    await waitForPid(path.join(rootConf, "nginx.pid"), rootNginx);
  }

  /** ExecStart of cyrus-nginx.service, as its user with only CAP_NET_BIND_SERVICE. */
  const startUnit = async () => {
    const pidFile = path.join(runDir, "nginx.pid");
    fs.rmSync(pidFile, { force: true });
    const args = [
      "-p",
      runDir,
      "-c",
      path.join(releaseRoot, "current", "nginx", "cyrus-nginx.conf"),
      "-e",
      path.join(logDir, "error.log"),
    ];
    unit = isRoot()
      ? run("setpriv", [
          `--reuid=${web.uid}`,
          `--regid=${web.gid}`,
          "--clear-groups",
          "--inh-caps=+net_bind_service",
          "--ambient-caps=+net_bind_service",
          NGINX,
          ...args,
        ])
      : run(NGINX, args);
    unitPid = await waitForPid(pidFile, unit);
  };
  const unitRunning = () => unit !== undefined && unit.child.exitCode === null && unit.child.signalCode === null;

  return {
    rootConf,
    runDir,
    logDir,
    env: { RELEASE_NGINX_RUN_DIR: runDir, RELEASE_NGINX_LOG_DIR: logDir, RELEASE_NGINX_TEMP_DIR: tempDir },
    web,
    async reload() {
      if (rootNginx) {
        const result = spawnSync(NGINX, [...rootArgs, "-s", "reload"], { encoding: "utf8" });
        return { ok: result.status === 0, text: `${result.stdout}${result.stderr}` };
      }
      try {
        if (unitRunning()) process.kill(unitPid!, "SIGHUP");
        else await startUnit();
        return { ok: true, text: "" };
      } catch (error) {
        return { ok: false, text: (error as Error).message };
      }
    },
    async takeUpgradeStep() {
      writeRootConf(false);
      if (rootNginx) await stopProc(rootNginx, "SIGQUIT", 10_000);
      rootNginx = undefined;
      await startUnit();
    },
    masterPid: () => (rootNginx ? rootNginx.child.pid : unitRunning() ? unitPid : undefined),
    output: () => `${rootNginx?.output() ?? ""}${unit?.output() ?? ""}`,
    async stop() {
      if (rootNginx) await stopProc(rootNginx, "SIGQUIT", 5_000);
      if (unit && unitRunning()) await stopProc(unit, "SIGQUIT", 5_000);
    },
  };
}
