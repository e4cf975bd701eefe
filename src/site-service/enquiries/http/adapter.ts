/**
 * The one request adapter, shared by the Gatsby Function (src/api/email.ts) and the standalone
 * service (../../service/server.ts): an HTTP request as node:http gives it (Gatsby's is the same
 * object, extended) to the receiver, and the answer back through the edge's `reply`. What can go
 * wrong around the receiver is answered here, the same everywhere:
 *   a body over the limit        413 payload_too_large (from the core), connection closed
 *   a body too slow to arrive    408 request_timeout, connection closed
 *   the client gone mid-upload   no answer: nobody is left to read it
 *   a settings error             500 server_misconfigured, logged
 *   anything else                500 internal_error, logged
 */
import type { IncomingHttpHeaders, ServerResponse } from "node:http";
import type { Receiver } from "../core/receiver";
import { answers, type EnquiryResponse } from "../core/responses";
import { clientView, type ProxySettings } from "../../service/proxy";
import { BodyTimeoutError, ClientGoneError, requestBody, type BodySource } from "./read-body";

export type IncomingEnquiry = BodySource & {
  method?: string;
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string; destroyed: boolean; readableEnded: boolean } | null;
};

/** Sends an answer the edge's way (node:http's writeHead/end, Gatsby's status/setHeader/send). */
export type Reply = (answer: EnquiryResponse) => void;

/** node:http's way, the standalone service's. */
export const nodeReply =
  (res: ServerResponse): Reply =>
  (answer) => {
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };

export interface AdapterOptions {
  /** Called for each request, so that a settings error becomes a 500 answer, not a crash. */
  receiver: () => Receiver;
  /** How far to trust a proxy in front (../http/proxy.ts); none: the socket's peer is the client. */
  proxy?: () => ProxySettings | undefined;
  log?: Pick<Console, "error">;
  /** How long a body may take to arrive (nginx reads it whole first; a client straight to the server may dawdle). */
  bodyTimeoutMs?: number;
}

export function createRequestAdapter(options: AdapterOptions) {
  const { receiver: getReceiver, proxy, log = console, bodyTimeoutMs = 10_000 } = options;
  return async function adaptRequest(req: IncomingEnquiry, reply: Reply): Promise<void> {
    let answer: EnquiryResponse;
    let complete = true;
    try {
      const receiver = getReceiver();
      const client = clientView(req.socket?.remoteAddress ?? "", req.headers, proxy?.());
      const read = await requestBody(req, receiver.config.maxBodyBytes, bodyTimeoutMs);
      complete = read.complete;
      answer = await receiver.handleEnquiry({
        method: req.method ?? "",
        headers: req.headers,
        rawBody: read.body,
        ...client,
        clientGone: () => socketGone(req.socket),
      });
    } catch (error) {
      complete = false;
      if (error instanceof BodyTimeoutError) answer = answers.requestTimeout();
      // Not req.destroyed: a request whose body was read whole is destroyed too, and is still owed an answer.
      else if (error instanceof ClientGoneError || socketGone(req.socket)) return;
      else {
        log.error(`enquiry receiver: ${(error as Error).stack ?? error}`);
        answer = (error as Error).name === "ConfigError" ? answers.misconfigured() : answers.internalError();
      }
    }
    // An unread body would otherwise be drained from a keep-alive connection after the answer.
    reply(complete ? answer : { ...answer, headers: { ...answer.headers, connection: "close" } });
  };
}

/**
 * The client has closed its side of the connection (a proxy that gave up, a visitor who left): an
 * HTTP client never half-closes while it waits for an answer.
 */
export function socketGone(socket: { destroyed: boolean; readableEnded: boolean } | null | undefined): boolean {
  return !socket || socket.destroyed || socket.readableEnded;
}
