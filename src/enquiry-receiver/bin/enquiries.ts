/** Entry point of `npm run enquiries` (run with tsx): listing and re-sending stored enquiries (../cli). */
import { runEnquiriesCli } from "..";

runEnquiriesCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
