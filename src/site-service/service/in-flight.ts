/**
 * The requests being handled: counted, each logged as one JSON line when it ends (time, method,
 * path without its query, status, duration; no address and no body), and awaited at shutdown.
 */
import type http from "node:http";
import type { JsonLog } from "./json-log";

export interface InFlight {
  /** Counts the request until its answer is finished or its connection closed, then logs it. */
  track(req: http.IncomingMessage, res: http.ServerResponse, path: string): void;
  count(): number;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
}

export function inFlightRequests(log: JsonLog): InFlight {
  let active = 0;
  let waiters: Array<() => void> = [];
  const settleIfIdle = () => {
    if (active > 0) return;
    const settled = waiters;
    waiters = [];
    settled.forEach((resolve) => resolve());
  };
  return {
    count: () => active,
    idle: () =>
      new Promise<void>((resolve) => {
        waiters.push(resolve);
        settleIfIdle();
      }),
    track(req, res, path) {
      const started = process.hrtime.bigint();
      const header = String(req.headers["x-request-id"] ?? "");
      const requestId = /^[\w.-]{1,128}$/.test(header) ? header : undefined;
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
    },
  };
}
