/**
 * The standalone enquiry service: the same receiver as the Gatsby Function (src/api/email.ts), on
 * plain node:http, for hosts that serve the built site with a web server such as nginx.
 *
 *   POST /api/email           the enquiry endpoint (the node:http listener of ./node-http)
 *   GET  /healthz, /api/health  200 {"status":"ok"}; 503 {"status":"stopping"} once shutdown began
 *
 * One JSON line per request on stdout (time, method, path, status, duration: no address, no
 * body, no query string), JSON lines for everything else it says too. On SIGTERM or SIGINT it
 * stops accepting connections, lets the requests in flight finish (each 2xx enquiry is on disk
 * before its answer is sent), waits for e-mails under way, and exits; all of it bounded in time.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { securePrivateFolder } from "./append-log";
import { ConfigError, loadConfig, runtimeEnv, type Env } from "./config";
import { createNodeListener } from "./node-http";
import { createReceiver, type Logger, type Receiver, type ReceiverOptions } from "./receiver";

export interface ServiceSettings {
  host: string;
  port: number;
  /** How long a shutdown waits for requests in flight, then for e-mails under way. */
  shutdownTimeoutMs: number;
}

/** ENQUIRY_HOST (127.0.0.1), ENQUIRY_PORT (9100), ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS (10). */
export function loadServiceSettings(env: Env): ServiceSettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  const port = value("ENQUIRY_PORT") ?? "9100";
  if (!/^\d+$/.test(port) || Number(port) > 65535) throw new ConfigError(`ENQUIRY_PORT must be a port number from 0 to 65535 (got "${port}")`);
  const timeout = value("ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS") ?? "10";
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1) {
    throw new ConfigError(`ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS must be a whole number above 0 (got "${timeout}")`);
  }
  return { host: value("ENQUIRY_HOST") ?? "127.0.0.1", port: Number(port), shutdownTimeoutMs: Number(timeout) * 1000 };
}

export type Level = "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | undefined>;

export interface JsonLog {
  (level: Level, msg: string, fields?: LogFields): void;
  /** The same log in the shape the receiver expects (console-like). */
  receiverLogger: Logger;
}

/** Structured logging: one JSON object per line, written with `write` (stdout by default). */
export function jsonLog(write: (line: string) => void = (line) => void process.stdout.write(line)): JsonLog {
  const log = ((level, msg, fields = {}) => {
    write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`);
  }) as JsonLog;
  const text = (args: unknown[]) => args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ");
  log.receiverLogger = {
    info: (...args: unknown[]) => log("info", text(args)),
    warn: (...args: unknown[]) => log("warn", text(args)),
    error: (...args: unknown[]) => log("error", text(args)),
  };
  return log;
}

export interface EnquiryService {
  server: http.Server;
  receiver: Receiver;
  settings: ServiceSettings;
  /** Resolves with the bound address once listening. */
  listen(): Promise<AddressInfo>;
  /**
   * Graceful stop (idempotent): stop accepting, finish the requests in flight, wait for e-mails
   * under way; after shutdownTimeoutMs each, what is left is cut off. Resolves true if nothing was.
   */
  shutdown(reason: string): Promise<boolean>;
  /** Requests being handled right now. */
  inFlight(): number;
}

export interface ServiceOptions {
  env?: Env;
  log?: JsonLog;
  /** Passed to the receiver (tests: a mailer, a clock). */
  receiverOptions?: ReceiverOptions;
  projectRoot?: string;
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" };
const ENQUIRY_PATH = "/api/email";
const HEALTH_PATHS = new Set(["/healthz", "/api/health"]);
// nginx and other proxies keep idle upstream connections for up to 60 s (deploy/nginx uses 30 s):
// this server must keep them open longer, or a request sent on a connection it is closing fails.
const KEEP_ALIVE_MS = 75_000;

/**
 * Builds the service from the environment. Throws ConfigError on an invalid setting, so a bad
 * configuration stops the service at start rather than failing each enquiry.
 */
export function createEnquiryService(options: ServiceOptions = {}): EnquiryService {
  const env = options.env ?? runtimeEnv();
  const log = options.log ?? jsonLog();
  const settings = loadServiceSettings(env);
  const config = loadConfig(env, options.projectRoot);
  // Fail at start, not at the first enquiry, if the data folder cannot be written; never leave it readable by others.
  const tightened = securePrivateFolder(config.dataDir);
  fs.accessSync(config.dataDir, fs.constants.W_OK);
  for (const change of tightened) log("warn", "data folder permissions tightened", { change });
  const receiver = createReceiver(config, { log: log.receiverLogger, ...options.receiverOptions });
  const enquiryListener = createNodeListener(receiver, log.receiverLogger);

  let stopping = false;
  let active = 0;
  let idleWaiters: Array<() => void> = [];
  const settleIfIdle = () => {
    if (active > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    waiters.forEach((resolve) => resolve());
  };

  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const path = (req.url ?? "/").split("?")[0]!;
    const requestId = /^[\w.-]{1,128}$/.test(String(req.headers["x-request-id"] ?? "")) ? String(req.headers["x-request-id"]) : undefined;
    active += 1;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      active -= 1;
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      log("info", "request", {
        method: req.method,
        path: path.length > 200 ? `${path.slice(0, 200)}…` : path,
        status: res.statusCode,
        durationMs: Math.round(durationMs * 1000) / 1000,
        ...(res.writableFinished ? {} : { aborted: true }),
        requestId,
      });
      settleIfIdle();
    };
    res.once("finish", end).once("close", end);
    // A request that arrives on a kept-alive connection after shutdown began is still answered,
    // and its connection closed after it.
    if (stopping) res.setHeader("connection", "close");

    if (path === ENQUIRY_PATH) {
      void enquiryListener(req, res);
    } else if (HEALTH_PATHS.has(path)) {
      if (req.method !== "GET" && req.method !== "HEAD") {
        sendJson(res, 405, { error: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
      } else {
        sendJson(res, stopping ? 503 : 200, { status: stopping ? "stopping" : "ok" }, {}, req.method === "HEAD");
      }
    } else {
      sendJson(res, 404, { error: "not_found", message: `The enquiry service has no ${path}; enquiries go to POST ${ENQUIRY_PATH}.` });
    }
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = 20_000;
  server.requestTimeout = 30_000;

  let shuttingDown: Promise<boolean> | undefined;
  const shutdown = (reason: string) =>
    (shuttingDown ??= (async () => {
      stopping = true;
      log("info", "shutting down", { reason, inFlight: active });
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();

      let clean = true;
      const inFlightDone = new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIfIdle();
      });
      if (!(await within(inFlightDone, settings.shutdownTimeoutMs))) {
        clean = false;
        log("error", "requests still in flight after the shutdown timeout: closing their connections", { inFlight: active });
      }
      // Connections whose last request just finished: close them as they become idle.
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      if (!(await within(closed, 2_000))) server.closeAllConnections();
      clearInterval(sweep);
      await within(closed, 1_000);

      if (!(await within(receiver.drain(), settings.shutdownTimeoutMs))) {
        clean = false;
        log("warn", "e-mails still being sent at shutdown: those enquiries stay pending for `npm run enquiries -- retry`");
      }
      log("info", "stopped", { clean });
      return clean;
    })());

  return {
    server,
    receiver,
    settings,
    inFlight: () => active,
    shutdown,
    listen: () =>
      new Promise<AddressInfo>((resolve, reject) => {
        server.once("error", reject);
        server.listen(settings.port, settings.host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          log("info", "listening", { host: address.address, port: address.port, dataDir: config.dataDir, trustProxy: config.trustProxy });
          resolve(address);
        });
      }),
  };
}

function sendJson(res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}, headOnly = false): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...JSON_HEADERS, ...headers, "content-length": Buffer.byteLength(text) });
  res.end(headOnly ? undefined : text);
}

/** True if the promise settled within ms. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true, () => true), timeout]).finally(() => clearTimeout(timer));
}

/**
 * `npm run enquiry-server`: starts the service and stops it gracefully on SIGTERM/SIGINT.
 * Resolves with the process exit code once stopped (1 if it could not start).
 */
export async function runEnquiryService(env: Env = runtimeEnv(), log: JsonLog = jsonLog()): Promise<number> {
  let service: EnquiryService;
  try {
    service = createEnquiryService({ env, log });
    await service.listen();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    log("error", "cannot start the enquiry service", { error: e.name === "ConfigError" || e.code ? e.message : (e.stack ?? e.message) });
    return 1;
  }
  return new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      void service.shutdown(signal).then((clean) => resolve(clean ? 0 : 1));
    };
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  });
}
