/**
 * The Gatsby Function's entry (src/api/email.ts): what receiving an enquiry needs, and nothing of
 * the standalone service. Gatsby bundles the function with everything its imports reach, and the
 * public entry (./index) reaches the whole service: the inbox, its passkey library
 * (@simplewebauthn/server and its X.509 and ASN.1 code), the studio's sign-in, the push hook. None
 * of that runs in the function, so it imports from here; everything else imports ./index.
 */
export { runtimeEnv } from "./service/env";
export { sharedReceiver, type Receiver } from "./enquiries/core/receiver";
export { createRequestAdapter, type AdapterOptions } from "./enquiries/http/adapter";
export { loadProxySettings } from "./service/proxy";
