/**
 * What `npm run release -- --wanted` runs (deploy/release/runner.ts's releaseWhenWanted), at the
 * module level: the CLI refuses root, and these tests may run as root. The settings come from the
 * environment, as the CLI reads them. Prints how many releases it made and how many failed.
 */
import { releaseWhenWanted } from "../../../deploy/release/runner";
import { readSettings } from "../../../deploy/release/settings";

releaseWhenWanted(readSettings(process.env)).then(
  ({ released, failed }) => {
    console.log(`released ${released}, failed ${failed}`);
    process.exitCode = failed > 0 ? 1 : 0;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
