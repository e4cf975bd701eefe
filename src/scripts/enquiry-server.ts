/**
 * Entry point of `npm run enquiry-server`: the standalone enquiry service (see src/enquiry/server.ts).
 * Run it as `node --import tsx src/scripts/enquiry-server.ts` (what the npm script does), so that the
 * process a supervisor signals is the server itself.
 */
import { runEnquiryService } from "../enquiry/server";

void runEnquiryService().then((code) => {
  process.exitCode = code;
  // Everything is closed by now; should a stray handle keep the event loop alive, do not hang.
  setTimeout(() => process.exit(code), 2_000).unref();
});
