/**
 * The production stack on loopback, as a real deployment runs it: Debian's nginx with the
 * project's configuration (rendered by deploy/nginx/render.ts for a free 127.0.0.1 port and a
 * temporary copy of public/ as its root), and the standalone enquiry service
 * (src/site-service/bin/site-service.ts) behind it on another free port, with a temporary data folder.
 * Everything lives in one temporary folder, removed by stop().
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readStoredLinesNow } from "../../../src/site-service";
import { freePort, projectRoot } from "../../support/serve";

export { projectRoot };

/** NGINX_BIN, else nginx on PATH, else Debian's /usr/sbin/nginx (off a non-root user's PATH), as render.ts. */
export const NGINX =
  process.env.NGINX_BIN ||
  (spawnSync("nginx", ["-v"]).error && fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx");

/** The build the stack serves (a copy of it): public/, or DEPLOY_PUBLIC_DIR (e.g. a release about to go live). */
export const builtSite = path.resolve(projectRoot, process.env.DEPLOY_PUBLIC_DIR || "public");

/** Why the stack cannot run here, or undefined when it can. */
export function missingPrerequisite(): string | undefined {
  if (!fs.existsSync(path.join(builtSite, "404.html"))) {
    return "public/ has not been built: run `npm run test:deploy` (it builds when needed) or `npm run build` first";
  }
  const probe = spawnSync(NGINX, ["-v"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) return "nginx is not installed: apt-get install -y nginx";
  return undefined;
}

export interface Proc {
  child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
}

export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; uid?: number; gid?: number } = {},
): Proc {
  const child = spawn(command, args, {
    cwd: options.cwd ?? projectRoot,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    uid: options.uid,
    gid: options.gid,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolve) => {
    // At "close" its output has all been read, its last log lines included; "exit" can come before
    // them. A child that leaves the pipes open (nginx's workers, after a SIGKILL) never closes: then
    // 2 s after "exit".
    child.once("close", (code, signal) => resolve(code ?? signal ?? "unknown"));
    child.once("exit", (code, signal) => setTimeout(() => resolve(code ?? signal ?? "unknown"), 2_000).unref());
    child.once("error", (error) => {
      output += String(error);
      resolve("spawn-error");
    });
  });
  return { child, output: () => output, exited };
}

/** Stops a process: `signal`, then SIGKILL if it has not exited within ms. */
export async function stopProc(
  proc: Proc | undefined,
  signal: NodeJS.Signals = "SIGTERM",
  ms = 15_000,
): Promise<number | string | undefined> {
  if (!proc) return undefined;
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.exited;
  proc.child.kill(signal);
  const timer = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), ms).unref());
  const result = await Promise.race([proc.exited, timer]);
  if (result !== "timeout") return result;
  proc.child.kill("SIGKILL");
  return proc.exited;
}

/** Polls url until it answers `status` (at most `tries` times, 100 ms apart). */
export async function waitFor(url: string, status = 200, tries = 150, alive?: () => boolean): Promise<void> {
  let last = "";
  for (let i = 0; i < tries; i += 1) {
    if (alive && !alive()) throw new Error(`the process behind ${url} exited`);
    try {
      const res = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === status) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer ${status} after ${tries} tries (last: ${last})`);
}

export interface StackOptions {
  /** The build it serves (a copy of it): builtSite by default (e.g. the fixture site's public/). */
  publicDir?: string;
  /** Extra environment of the enquiry service (rate limit high by default, no mail). */
  serviceEnv?: NodeJS.ProcessEnv;
  /** nginx worker processes (default 2). */
  workers?: number;
  /** nginx's JSON access log (default on). */
  accessLog?: boolean;
  /**
   * render.ts options for the limits and timeouts. By default the per-client limits are lifted
   * (every test here is one client on 127.0.0.1); [] renders the production defaults.
   */
  renderArgs?: string[];
  /**
   * Runs on the copy of the build before nginx's configuration is rendered for it, once the address is
   * known (e.g. the studio built again for a git host); what it returns is added to the service's environment.
   */
  prepare?: (site: { root: string; origin: string }) => Promise<NodeJS.ProcessEnv | void> | NodeJS.ProcessEnv | void;
}

/** Limits high enough for a whole test suite from one loopback client. */
export const LIFTED_LIMITS = [
  "--api-rate",
  "1000r/s",
  "--api-burst",
  "10000",
  "--api-conn-limit",
  "1000",
  "--conn-limit",
  "1000",
];

export interface Stack {
  /** nginx: http://127.0.0.1:<port> */
  origin: string;
  /** The enquiry service directly: http://127.0.0.1:<port> */
  serviceOrigin: string;
  /** The service's ENQUIRY_DATA_DIR. */
  dataDir: string;
  /** Rendered nginx configuration (and its logs). */
  confDir: string;
  /** nginx's document root: a copy of public/. */
  root: string;
  nginx: Proc;
  service(): Proc;
  /** Starts the service again (same port, same data) after it stopped; waits until healthy. */
  startService(): Promise<void>;
  /** Sends the service a signal and waits (bounded) for it to exit. */
  stopService(signal?: NodeJS.Signals): Promise<number | string | undefined>;
  /** The stored lines of the service's store, oldest first. */
  stored(): Array<Record<string, string>>;
  /** The service's JSON log lines so far (all runs). */
  serviceLog(): Array<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const problem = missingPrerequisite();
  if (problem) throw new Error(problem);
  const publicDir = options.publicDir ?? builtSite;
  if (!fs.existsSync(path.join(publicDir, "404.html"))) throw new Error(`${publicDir} holds no built site`);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-deploy-"));
  // nginx's workers run as an unprivileged user when the tests run as root: they must reach the root.
  fs.chmodSync(base, 0o755);
  const root = path.join(base, "public");
  const confDir = path.join(base, "nginx");
  const dataDir = path.join(base, "enquiries");
  // A fresh copy of the build: the "temporary root" nginx serves in the tests.
  fs.cpSync(publicDir, root, { recursive: true });

  const nginxPort = await freePort();
  const servicePort = await freePort();
  const origin = `http://127.0.0.1:${nginxPort}`;
  const serviceOrigin = `http://127.0.0.1:${servicePort}`;
  let prepared: NodeJS.ProcessEnv = {};
  try {
    prepared = (await options.prepare?.({ root, origin })) ?? {};
  } catch (error) {
    fs.rmSync(base, { recursive: true, force: true });
    throw error;
  }

  const render = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "deploy/nginx/render.ts",
      "--standalone",
      "--root",
      root,
      "--out",
      confDir,
      "--listen",
      `127.0.0.1:${nginxPort}`,
      "--upstream",
      `127.0.0.1:${servicePort}`,
      "--workers",
      String(options.workers ?? 2),
      ...(options.accessLog === false ? ["--no-access-log"] : []),
      ...(options.renderArgs ?? LIFTED_LIMITS),
    ],
    { cwd: projectRoot, encoding: "utf8", env: { ...process.env, GATSBY_ENQUIRY_API: "" } },
  );
  if (render.status !== 0) throw new Error(`render.ts failed:\n${render.stdout}${render.stderr}`);

  const serviceEnv: NodeJS.ProcessEnv = {
    ...process.env,
    // No mail from the tests, whatever the shell has set.
    SMTP_URL: "",
    ENQUIRY_TO: "",
    ENQUIRY_AWAIT_DELIVERY: "0",
    ENQUIRY_RATE_LIMIT: "1000000",
    ...options.serviceEnv,
    ...prepared,
    ENQUIRY_HOST: "127.0.0.1",
    ENQUIRY_PORT: String(servicePort),
    ENQUIRY_DATA_DIR: dataDir,
    ENQUIRY_TRUST_PROXY: "1",
  };
  const serviceRuns: Proc[] = [];
  const startService = async () => {
    const proc = run(process.execPath, ["--import", "tsx", "src/site-service/bin/site-service.ts"], {
      env: serviceEnv,
    });
    serviceRuns.push(proc);
    try {
      await waitFor(`${serviceOrigin}/healthz`, 200, 300, () => proc.child.exitCode === null);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nenquiry service output:\n${proc.output()}`);
    }
  };

  let nginx: Proc | undefined;
  const stop = async () => {
    await stopProc(serviceRuns.at(-1), "SIGTERM");
    // SIGQUIT: nginx's graceful stop.
    await stopProc(nginx, "SIGQUIT", 5_000);
    fs.rmSync(base, { recursive: true, force: true });
  };
  try {
    await startService();
    // -e: the error log before the configuration is read (the packaged default may be unwritable).
    nginx = run(NGINX, ["-p", confDir, "-c", "nginx.conf", "-e", path.join(confDir, "logs", "error.log")]);
    const nginxProc = nginx;
    try {
      await waitFor(`${origin}/home`, 200, 150, () => nginxProc.child.exitCode === null);
    } catch (error) {
      const log = fs.existsSync(path.join(confDir, "logs", "error.log"))
        ? fs.readFileSync(path.join(confDir, "logs", "error.log"), "utf8")
        : "";
      throw new Error(`${(error as Error).message}\nnginx output:\n${nginxProc.output()}\n${log}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    origin,
    serviceOrigin,
    dataDir,
    confDir,
    root,
    nginx,
    service: () => serviceRuns.at(-1)!,
    startService,
    stopService: (signal = "SIGTERM") => stopProc(serviceRuns.at(-1), signal),
    stored: () => readStoredLinesNow(dataDir),
    serviceLog: () =>
      serviceRuns
        .flatMap((p) => p.output().split("\n"))
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    stop,
  };
}
