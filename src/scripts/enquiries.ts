/** Entry point of `npm run enquiries` (run with tsx); see src/enquiry/cli.ts. */
import { runEnquiriesCli } from "../enquiry/cli";

runEnquiriesCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
