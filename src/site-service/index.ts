/**
 * The public entry of the site's Node service: the only file of src/site-service that code outside
 * it imports (eslint.config.mjs enforces it), so everything behind it can be rearranged freely.
 * Behind it: enquiries/ (the form's enquiries: checks, store, mail, outbox, screening, the CLI),
 * sign-in/ (the studio's GitHub sign-in), push-hook/ (the git host's push webhook), and service/,
 * what all three share (settings, the JSON log, the node:http server).
 *
 *   the Gatsby Function (src/api/email.ts)          none: ./function-entry, the same exports without the
 *                                                   rest of the service, which its bundle would carry
 *   the standalone service (bin/site-service)       runEnquiryService
 *   `npm run enquiries` (bin/enquiries)             runEnquiriesCli
 *   tests of the site, the deploy, the browsers     readStoredLines, readStoredLinesNow, createEnquiryService
 *   the release (deploy/release)                    takeReleaseWanted: the note a push hook leaves
 *   nginx's configuration (deploy/nginx/render.ts)  CALLBACK_CSP, the studio's sign-in page's policy
 *   the enquiry store's benchmark (tools/bench)     openBenchStore: the store itself, secure_delete off on demand
 */
export { runtimeEnv } from "./service/env";
export { sharedReceiver, type Receiver } from "./enquiries/core/receiver";
export { createRequestAdapter, type AdapterOptions, type Reply } from "./enquiries/http/adapter";
export { loadProxySettings, type ProxySettings } from "./service/proxy";
export { createEnquiryService, runEnquiryService, type EnquiryService, type JsonLog } from "./service/server";
export { markReleaseWanted, takeReleaseWanted, WANTED_FILE, type ReleaseWanted } from "./push-hook/release-wanted";
export { CALLBACK_CSP } from "./sign-in/callback-page";
export { runEnquiriesCli } from "./enquiries/cli/cli";
export { readStoredLines, readStoredLinesNow } from "./enquiries/store/read-stored-lines";
export { openBenchStore, type BenchStoreOptions } from "./enquiries/store/bench-store";
export type { EnquiryStore, StoredEnquiry } from "./enquiries/store/store";
