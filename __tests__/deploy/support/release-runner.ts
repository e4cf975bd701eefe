/**
 * What `npm run release -- --wanted` and `-- --if-moved` run (deploy/release/runner.ts), at the
 * module level: the CLI refuses root, and these tests may run as root. The settings come from the
 * environment, as the CLI reads them.
 *
 *   wanted     releaseWhenWanted: prints how many releases it made and how many failed
 *   if-moved   releaseIfMoved: prints its outcome (released, up to date, busy)
 */
import { releaseIfMoved, releaseWhenWanted } from "../../../deploy/release/runner";
import { readSettings } from "../../../deploy/release/settings";

async function main(command: string | undefined): Promise<number> {
  const settings = readSettings(process.env);
  if (command === "wanted") {
    const { released, failed } = await releaseWhenWanted(settings);
    console.log(`released ${released}, failed ${failed}`);
    return failed > 0 ? 1 : 0;
  }
  if (command === "if-moved") {
    console.log(`outcome: ${await releaseIfMoved(settings)}`);
    return 0;
  }
  console.error("usage: release-runner.ts wanted | if-moved");
  return 2;
}

main(process.argv[2]).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
