/**
 * The enquiry receiver's public entry: the only file of src/enquiry-receiver that code outside it
 * imports (eslint.config.mjs enforces it), so everything behind it can be rearranged freely.
 *
 *   the Gatsby Function (src/api/email.ts)       createRequestAdapter, sharedReceiver, loadProxySettings
 *   the standalone service (bin/enquiry-server)  runEnquiryService
 *   `npm run enquiries` (bin/enquiries)          runEnquiriesCli
 *   tests of the site, the deploy, the browsers  readStoredLines, readStoredLinesNow, createEnquiryService
 *   the release (tools/release)                  takeReleaseWanted: the note a push hook leaves
 *   nginx's configuration (deploy/nginx/render.ts) CALLBACK_CSP, the studio's sign-in page's policy
 */
export { runtimeEnv } from "./core/config";
export { sharedReceiver, type Receiver } from "./core/receiver";
export { createRequestAdapter, type AdapterOptions, type Reply } from "./http/adapter";
export { loadProxySettings, type ProxySettings } from "./http/proxy";
export { createEnquiryService, runEnquiryService, type EnquiryService, type JsonLog } from "./service/server";
export { markReleaseWanted, takeReleaseWanted, WANTED_FILE, type ReleaseWanted } from "./release-hook/release-wanted";
export { CALLBACK_CSP } from "./service/oauth/callback-page";
export { runEnquiriesCli } from "./cli/cli";
export { readStoredLines, readStoredLinesNow } from "./store/read-stored-lines";
