/** Entry point of `npm run enquiries` (run with tsx): listing and re-sending stored enquiries (../enquiries/cli). */
// First: on an older Node, one line naming the Node needed, before anything fails on its way.
import "../../../tools/check-node.cjs";
import { runEnquiriesCli } from "..";
import { routeProcessWarnings } from "../enquiries/store/quiet-warnings";

routeProcessWarnings((warning) => console.error(`${warning.name}: ${warning.message}`));

runEnquiriesCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
