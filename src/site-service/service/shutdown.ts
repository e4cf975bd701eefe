/**
 * Graceful stop of the service: stop accepting, let the requests in flight finish (each 2xx
 * enquiry is on disk before its answer is sent), wait for e-mails under way. Each wait is bounded
 * by shutdownTimeoutMs; what is left after it is cut off. Resolves true if nothing was.
 */
import type http from "node:http";
import type { Receiver } from "../enquiries/core/receiver";
import type { InFlight } from "./in-flight";
import type { JsonLog } from "./json-log";

export async function shutDown(
  server: http.Server,
  inFlight: InFlight,
  receiver: Receiver,
  timeoutMs: number,
  log: JsonLog,
): Promise<boolean> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();

  let clean = true;
  if (!(await within(inFlight.idle(), timeoutMs))) {
    clean = false;
    log("error", "requests still in flight after the shutdown timeout: closing their connections", {
      inFlight: inFlight.count(),
    });
  }
  // Connections whose last request just finished: close them as they become idle.
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  if (!(await within(closed, 2_000))) server.closeAllConnections();
  clearInterval(sweep);
  await within(closed, 1_000);

  if (!(await within(receiver.drain(), timeoutMs))) {
    clean = false;
    log("warn", "e-mails still being sent at shutdown: those enquiries stay pending for `npm run enquiries -- retry`");
  }
  await within(receiver.close(), 2_000);
  return clean;
}

/** True if the promise settled within ms. */
function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    timeout,
  ]).finally(() => clearTimeout(timer));
}
