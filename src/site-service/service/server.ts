/**
 * The standalone enquiry service: the same receiver as the Gatsby Function (src/api/email.ts), on
 * plain node:http, for hosts that serve the built site with a web server such as nginx.
 *
 *   POST /api/email           the enquiry endpoint (the request adapter of ../enquiries/http/adapter, with the
 *                             proxy's headers trusted as ENQUIRY_TRUST_PROXY says: ./settings)
 *   GET  /healthz, /api/health  200 {"status":"ok"}; 503 {"status":"stopping"} once shutdown began
 *   POST /hooks/push/<host>   a git host's push webhook: notes that a release is wanted
 *                             (../push-hook; only when RELEASE_HOOK_SECRET is set)
 *   GET  /oauth/authorize, /oauth/callback  the editing studio's GitHub sign-in (../sign-in/github.ts),
 *                             when GITHUB_OAUTH_CLIENT_ID and _SECRET are set (../sign-in/settings.ts)
 *   /inbox/api/…              the enquiry inbox's API, behind a passkey's session (../enquiries/inbox/inbox-http.ts)
 *
 * A path with a `.` or `..` segment, or an encoded /, \ or . (./request-path), gets 400 before any
 * of these: no handler sees a path that another part of the chain may read as a different one.
 *
 * One JSON line per request on stdout (time, method, path, status, duration: no address, no
 * body, no query string), JSON lines for everything else it says too. It opens its store (and
 * imports JSON-lines files of earlier versions) before it listens. On SIGTERM or SIGINT it stops
 * accepting connections, lets the requests in flight finish (each 2xx enquiry is committed before
 * its answer is sent), waits for e-mails under way, closes the store, and exits; all bounded in time.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../enquiries/core/config";
import { runtimeEnv, type Env } from "./env";
import { createReceiver, type Receiver, type ReceiverOptions } from "../enquiries/core/receiver";
import { RETENTION_INTERVAL_MS } from "../enquiries/core/retention";
import { createRequestAdapter, nodeReply } from "../enquiries/http/adapter";
import { handlePushHook, HOOK_PREFIX, loadPushHookSettings } from "../push-hook/push-hook";
import { securePrivateFolder } from "../enquiries/store/private-folder";
import { routeProcessWarnings } from "../enquiries/store/quiet-warnings";
import { inFlightRequests } from "./in-flight";
import { githubOAuthRoutes } from "../sign-in/github";
import { createInboxApi, type InboxApi } from "../enquiries/inbox/inbox-http";
import { loadGitHubOAuthSettings } from "../sign-in/settings";
import { jsonLog, type JsonLog } from "./json-log";
import { pathProblem } from "./request-path";
import { loadServiceSettings, SERVER_TIMEOUTS, type ServiceSettings } from "./settings";
import { shutDown } from "./shutdown";

export { jsonLog, loadServiceSettings, type JsonLog, type ServiceSettings };

export interface EnquiryService {
  server: http.Server;
  receiver: Receiver;
  settings: ServiceSettings;
  /** The inbox's API (its route lists: tests and docs). */
  inbox: InboxApi;
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

const JSON_HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};
const ENQUIRY_PATH = "/api/email";
const OUTBOX_INTERVAL_MS = 5_000;
const HEALTH_PATHS = new Set(["/healthz", "/api/health"]);

/**
 * Builds the service from the environment. Throws ConfigError on an invalid setting, so a bad
 * configuration stops the service at start rather than failing each enquiry.
 */
export function createEnquiryService(options: ServiceOptions = {}): EnquiryService {
  const env = options.env ?? runtimeEnv();
  const log = options.log ?? jsonLog();
  const settings = loadServiceSettings(env);
  const pushHook = loadPushHookSettings(env);
  const oauth = githubOAuthRoutes(loadGitHubOAuthSettings(env), log);
  const config = loadConfig(env, options.projectRoot);
  // Fail at start, not at the first enquiry, if the data folder cannot be written; never leave it readable by others.
  const tightened = securePrivateFolder(config.dataDir);
  fs.accessSync(config.dataDir, fs.constants.W_OK);
  for (const change of tightened) log("warn", "data folder permissions tightened", { change });
  const receiver = createReceiver(config, { log: log.receiverLogger, ...options.receiverOptions });
  const adaptRequest = createRequestAdapter({
    receiver: () => receiver,
    proxy: () => settings.proxy,
    log: log.receiverLogger,
  });
  const inbox = createInboxApi({
    store: receiver.store,
    config,
    proxy: () => settings.proxy,
    log,
    now: options.receiverOptions?.now,
    // A reply from the inbox goes out at once, not at the sender's next tick.
    sendDue: () => receiver.sendDue(),
  });
  const inFlight = inFlightRequests(log);
  let stopping = false;

  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    inFlight.track(req, res, path);
    // A request that arrives on a kept-alive connection after shutdown began is still answered,
    // and its connection closed after it.
    if (stopping) res.setHeader("connection", "close");
    const problem = pathProblem(path);
    if (problem)
      sendJson(res, 400, {
        error: "bad_path",
        message: `The path holds ${problem}: the enquiry service answers only plain paths.`,
      });
    else if (path === ENQUIRY_PATH) void adaptRequest(req, nodeReply(res));
    else if (HEALTH_PATHS.has(path)) answerHealth(req, res, stopping);
    else if (pushHook && path.startsWith(HOOK_PREFIX))
      handlePushHook(req, path, pushHook, (status, body, headers) => sendJson(res, status, body, headers), log);
    else if (inbox.handles(path)) void inbox.handle(req, res, path);
    else if (oauth.handles(path))
      oauth.handle(req, res, path).catch((error: Error) => {
        log("error", "github sign-in failed", { error: error.name });
        if (!res.headersSent) sendJson(res, 500, { error: "internal", message: "The sign-in failed." });
        else res.destroy();
      });
    else
      sendJson(res, 404, {
        error: "not_found",
        message: `The enquiry service has no ${path}; enquiries go to POST ${ENQUIRY_PATH}.`,
      });
  });
  Object.assign(server, SERVER_TIMEOUTS);

  // The outbox's sender: what is due from before a restart at once, then every few seconds.
  let sending: NodeJS.Timeout | undefined;
  let purging: NodeJS.Timeout | undefined;
  const purge = () =>
    void receiver
      .purgeExpired()
      .catch((error: Error) => log("error", "retention purge failed", { error: error.message }));
  let shuttingDown: Promise<boolean> | undefined;
  const shutdown = (reason: string) =>
    (shuttingDown ??= (async () => {
      stopping = true;
      clearInterval(sending);
      clearInterval(purging);
      log("info", "shutting down", { reason, inFlight: inFlight.count() });
      const clean = await shutDown(server, inFlight, receiver, settings.shutdownTimeoutMs, log);
      log("info", "stopped", { clean });
      return clean;
    })());

  return {
    server,
    receiver,
    settings,
    inbox,
    inFlight: inFlight.count,
    shutdown,
    listen: async () => {
      // Not listening before the store works: a supervisor sees the failure, nginx keeps its 502 page.
      await receiver.store.ready();
      void receiver.sendDue();
      sending = setInterval(() => void receiver.sendDue(), OUTBOX_INTERVAL_MS).unref();
      // ENQUIRY_RETENTION_DAYS: at start, then daily (nothing when unset).
      if (config.retentionDays !== undefined) {
        purge();
        purging = setInterval(purge, RETENTION_INTERVAL_MS).unref();
      }
      return new Promise<AddressInfo>((resolve, reject) => {
        server.once("error", reject);
        server.listen(settings.port, settings.host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          log("info", "listening", {
            host: address.address,
            port: address.port,
            dataDir: config.dataDir,
            store: receiver.store.where,
            trustProxy: settings.proxy.trustProxy,
          });
          resolve(address);
        });
      });
    },
  };
}

function answerHealth(req: http.IncomingMessage, res: http.ServerResponse, stopping: boolean): void {
  if (req.method !== "GET" && req.method !== "HEAD") {
    sendJson(res, 405, { error: "method_not_allowed", message: "Use GET." }, { allow: "GET, HEAD" });
    return;
  }
  sendJson(res, stopping ? 503 : 200, { status: stopping ? "stopping" : "ok" }, {}, req.method === "HEAD");
}

function sendJson(
  res: http.ServerResponse,
  status: number,
  body: object,
  headers: Record<string, string> = {},
  headOnly = false,
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...JSON_HEADERS, ...headers, "content-length": Buffer.byteLength(text) });
  res.end(headOnly ? undefined : text);
}

/**
 * `npm run site-service`: starts the service and stops it gracefully on SIGTERM/SIGINT.
 * Resolves with the process exit code once stopped (1 if it could not start).
 */
export async function runEnquiryService(env: Env = runtimeEnv(), log: JsonLog = jsonLog()): Promise<number> {
  routeProcessWarnings((warning) => log("warn", warning.message, { warning: warning.name }));
  let service: EnquiryService;
  try {
    service = createEnquiryService({ env, log });
    await service.listen();
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    log("error", "cannot start the enquiry service", {
      error: e.name === "ConfigError" || e.code ? e.message : (e.stack ?? e.message),
    });
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
