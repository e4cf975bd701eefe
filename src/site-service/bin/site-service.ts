/**
 * Entry point of `npm run site-service`: the site's standalone service (enquiries, the studio's
 * sign-in, the push hook; src/site-service/service).
 * Run it as `node --import tsx src/site-service/bin/site-service.ts` (what the npm script and
 * the units in docs/server-reference.md do), so that the process a supervisor signals is the server itself.
 */
// First: on an older Node, one line naming the Node needed, before anything fails on its way.
import "../../../tools/check-node.cjs";
import { runEnquiryService } from "..";

void runEnquiryService().then((code) => {
  process.exitCode = code;
  // Everything is closed by now; should a stray handle keep the event loop alive, do not hang.
  setTimeout(() => process.exit(code), 2_000).unref();
});
