/**
 * A process that uses the release lock (deploy/release/lock.ts) as a release does, for the tests of
 * the lock: run with `node --import tsx`, each one its own process, as two releases are.
 *
 *   take <lock> [--on-go]   takes the lock (after a line "go" on stdin, with --on-go: so that two
 *                           takers try at the same moment), says `took <pid>` and holds it until
 *                           stdin ends, then lets go; refused, says why and exits 3, as the CLI does
 *   holder <lock>           prints what lockHolder says, as JSON (null: nobody holds it)
 *   warn <lock>             uses the lock (node:sqlite is loaded), then emits a warning of its own
 */
import readline from "node:readline";
import { acquireLock, lockHolder, LockedError } from "../../../deploy/release/lock";

const [command, file = "", option] = process.argv.slice(2);

async function take(): Promise<number> {
  const lines = readline.createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  if (option === "--on-go") {
    console.log("ready");
    for (let line = await lines.next(); line.value !== "go"; line = await lines.next()) {
      if (line.done) return 1;
    }
  }
  let unlock: () => void;
  try {
    unlock = acquireLock(file);
  } catch (error) {
    if (!(error instanceof LockedError)) throw error;
    console.error(`release: ${error.message}`);
    return 3;
  }
  console.log(`took ${process.pid}`);
  while (!(await lines.next()).done) {
    // held until stdin ends (the test lets go, or ends)
  }
  unlock();
  console.log("released");
  return 0;
}

if (command === "take") {
  take().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else if (command === "holder") {
  console.log(JSON.stringify(lockHolder(file) ?? null));
} else if (command === "warn") {
  lockHolder(file);
  acquireLock(file)();
  process.emitWarning("printed as Node prints it", "TestWarning");
} else {
  console.error("usage: lock-process.ts take <lock> [--on-go] | holder <lock> | warn <lock>");
  process.exitCode = 2;
}
