/**
 * POST /api/email: the contact form's enquiry endpoint, as a Gatsby Function (served by
 * `gatsby serve` and `gatsby develop`). A thin adapter: everything else is in src/enquiry-receiver.
 */
import type { GatsbyFunctionConfig, GatsbyFunctionRequest, GatsbyFunctionResponse } from "gatsby";
import {
  answers,
  BodyTimeoutError,
  readBody,
  sharedReceiver,
  socketGone,
  type BodyRead,
  type EnquiryResponse,
  type Receiver,
} from "../enquiry-receiver";

/**
 * Gatsby parses bodies before calling a function (JSON up to 100 kB, text, forms, raw) and answers
 * parse errors itself, with HTML. The receiver needs the exact bytes to give its own 415, 413 and
 * 400 answers, so every parser is pointed at a media type no client sends and the body stream
 * reaches the function unread. (The parsers cannot be switched off: Gatsby replaces a config it
 * does not recognise with the defaults.)
 */
const NOT_PARSED = "application/x-cyrus-not-parsed";
const functionConfig: GatsbyFunctionConfig = {
  bodyParser: {
    json: { type: NOT_PARSED },
    text: { type: NOT_PARSED },
    raw: { type: NOT_PARSED },
    urlencoded: { type: NOT_PARSED, extended: false },
  },
};

/**
 * Exported through a destructuring on purpose. Gatsby's query extraction reads every file in src/
 * and takes a plain `export const config` (or `export { x as config }`) for a page's rendering
 * config, whereupon `gatsby build` bundles server-rendering engines the site does not use, and
 * fails validating them (they pull in sharp's native module). The function loader reads the
 * module's `config` export all the same.
 */
export const { config } = { config: functionConfig };

export function createEmailFunction(getReceiver: () => Receiver, log: Pick<Console, "error"> = console) {
  return async function email(req: GatsbyFunctionRequest, res: GatsbyFunctionResponse): Promise<void> {
    let answer: EnquiryResponse;
    let complete = true;
    try {
      const receiver = getReceiver();
      const read = await bodyOf(req, receiver.config.maxBodyBytes);
      complete = read.complete;
      answer = await receiver.handleEnquiry({
        method: req.method ?? "",
        headers: req.headers,
        rawBody: read.body,
        clientAddress: req.socket?.remoteAddress ?? "",
        clientGone: () => socketGone(req.socket),
      });
    } catch (error) {
      complete = false;
      if (error instanceof BodyTimeoutError) answer = answers.requestTimeout();
      else {
        log.error(`enquiry receiver: ${(error as Error).stack ?? error}`);
        answer = (error as Error).name === "ConfigError" ? answers.misconfigured() : answers.internalError();
      }
    }
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (!complete) res.setHeader("connection", "close");
    res.send(answer.body);
  };
}

/**
 * The raw body. A host that parsed it anyway (a multipart form, which Gatsby always parses, or an
 * adapter of its own) leaves only req.body: bytes are used as they are, anything else as JSON.
 */
async function bodyOf(req: GatsbyFunctionRequest, limit: number): Promise<BodyRead> {
  if (!req.readableEnded) return readBody(req, limit);
  const parsed: unknown = req.body;
  if (Buffer.isBuffer(parsed)) return { body: parsed, complete: true };
  if (typeof parsed === "string") return { body: Buffer.from(parsed, "utf8"), complete: true };
  return { body: Buffer.from(parsed === undefined ? "" : JSON.stringify(parsed), "utf8"), complete: true };
}

export default createEmailFunction(sharedReceiver);
