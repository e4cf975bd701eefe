/**
 * The enquiry receiver's public entry: the only file of src/enquiry-receiver that code outside it
 * imports (eslint.config.mjs enforces it), so everything behind it can be rearranged freely.
 *
 *   createEmailFunction's parts   the Gatsby Function (src/api/email.ts)
 *   runEnquiryService             the standalone service behind nginx (bin/enquiry-server.ts)
 *   runEnquiriesCli               `npm run enquiries` (bin/enquiries.ts)
 */
export { sharedReceiver, type Receiver } from "./core/receiver";
export { answers, type EnquiryResponse } from "./core/responses";
export { socketGone } from "./http/adapter";
export { BodyTimeoutError, readBody, type BodyRead } from "./http/read-body";
export { runEnquiryService } from "./service/server";
export { runEnquiriesCli } from "./cli/cli";
