/**
 * The receiver on plain node:http: the request listener that the standalone enquiry server mounts
 * (and the tests use), so that server and the Gatsby Function run the same core.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Receiver } from "../core/receiver";
import { BodyTimeoutError, readBody } from "./read-body";
import { answers, type EnquiryResponse } from "../core/responses";

export function createNodeListener(receiver: Receiver, log: Pick<Console, "error"> = console) {
  return async function enquiryListener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let answer: EnquiryResponse;
    let complete = true;
    try {
      const read = await readBody(req, receiver.config.maxBodyBytes);
      complete = read.complete;
      answer = await receiver.handleEnquiry({
        method: req.method ?? "",
        headers: req.headers,
        rawBody: read.body,
        clientAddress: req.socket.remoteAddress ?? "",
        clientGone: () => socketGone(req.socket),
      });
    } catch (error) {
      if (error instanceof BodyTimeoutError) answer = answers.requestTimeout();
      else if (req.destroyed)
        return; // the client went away during the upload: nobody to answer
      else {
        log.error(`enquiry receiver: ${(error as Error).stack ?? error}`);
        answer = answers.internalError();
      }
      complete = false;
    }
    sendAnswer(res, answer, complete);
  };
}

export function sendAnswer(res: ServerResponse, answer: EnquiryResponse, bodyComplete: boolean): void {
  // An unread body would otherwise be drained from a keep-alive connection after the answer.
  const headers = bodyComplete ? answer.headers : { ...answer.headers, connection: "close" };
  res.writeHead(answer.status, headers);
  res.end(answer.body);
}

/**
 * The client has closed its side of the connection (a proxy that gave up, a visitor who left): an
 * HTTP client never half-closes while it waits for an answer.
 */
export function socketGone(socket: { destroyed: boolean; readableEnded: boolean } | null | undefined): boolean {
  return !socket || socket.destroyed || socket.readableEnded;
}
