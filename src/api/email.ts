/**
 * POST /api/email: the contact form's enquiry endpoint, as a Gatsby Function (served by
 * `gatsby serve` and `gatsby develop`, or a host's Gatsby adapter). Only what is Gatsby's is here:
 * its body parsers kept off, and its way of sending an answer. The request adapter, its error
 * handling and the receiver are src/site-service's, the same as the standalone service's, through
 * its function entry (src/site-service/function-entry.ts), which keeps the inbox out of the bundle.
 */
import type { GatsbyFunctionConfig, GatsbyFunctionRequest, GatsbyFunctionResponse } from "gatsby";
import {
  createRequestAdapter,
  loadProxySettings,
  runtimeEnv,
  sharedReceiver,
  type AdapterOptions,
  type Receiver,
} from "../site-service/function-entry";

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

/** A host that runs functions behind a proxy can trust it as the service does (ENQUIRY_TRUST_PROXY). */
const proxyFromEnvironment = () => loadProxySettings(runtimeEnv());

/** options: the adapter's, for tests (a shorter body timeout). */
export function createEmailFunction(
  getReceiver: () => Receiver,
  log: Pick<Console, "error"> = console,
  options: Pick<AdapterOptions, "bodyTimeoutMs"> = {},
) {
  const adaptRequest = createRequestAdapter({ receiver: getReceiver, proxy: proxyFromEnvironment, log, ...options });
  return (req: GatsbyFunctionRequest, res: GatsbyFunctionResponse): Promise<void> =>
    adaptRequest(req, (answer) => {
      res.status(answer.status);
      for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
      res.send(answer.body);
    });
}

export default createEmailFunction(sharedReceiver);
