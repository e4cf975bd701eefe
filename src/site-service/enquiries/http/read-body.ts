/** Reading a request body without letting a client make the server hold more than it needs. */
import type { Readable } from "node:stream";

export interface BodyRead {
  body: Buffer;
  /** False when reading stopped early (over the limit): the connection should then be closed. */
  complete: boolean;
}

/** The body stopped arriving for longer than the timeout (a client too slow, or stalled). */
export class BodyTimeoutError extends Error {
  override name = "BodyTimeoutError";
}

/** The client closed the connection before the body ended: nobody is left to answer. */
export class ClientGoneError extends Error {
  override name = "ClientGoneError";
}

export type BodySource = Readable & { headers: Record<string, unknown>; body?: unknown };

/**
 * The raw body. A host that parsed it already (Gatsby always parses a multipart form; some
 * adapters parse every body) leaves only req.body: bytes are used as they are, anything else as JSON.
 */
export function requestBody(req: BodySource, limit: number, timeoutMs?: number): Promise<BodyRead> {
  if (!req.readableEnded) return readBody(req, limit, timeoutMs);
  const parsed = req.body;
  if (Buffer.isBuffer(parsed)) return Promise.resolve({ body: parsed, complete: true });
  const text = typeof parsed === "string" ? parsed : parsed === undefined ? "" : JSON.stringify(parsed);
  return Promise.resolve({ body: Buffer.from(text, "utf8"), complete: true });
}

/**
 * Reads up to limit + 1 bytes (enough to know the body is too large) and stops there; a body
 * declared larger than the limit is not read at all. Rejects on a stalled or aborted upload.
 */
export function readBody(req: BodySource, limit: number, timeoutMs = 10_000): Promise<BodyRead> {
  if (Number(req.headers["content-length"] ?? 0) > limit)
    return Promise.resolve({ body: Buffer.alloc(0), complete: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish(() => resolve({ body: Buffer.concat(chunks).subarray(0, limit + 1), complete: false }));
      }
    };
    const onEnd = () => finish(() => resolve({ body: Buffer.concat(chunks), complete: true }));
    const onError = (error: Error) => finish(() => reject(error));
    const onClose = () =>
      finish(() => reject(new ClientGoneError("the client closed the connection before the body ended")));
    const timer = setTimeout(() => finish(() => reject(new BodyTimeoutError("request body timed out"))), timeoutMs);
    req.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}
