/**
 * node:sqlite for the release's lock (./lock), loaded when the lock is first used. Node 22 announces
 * it as experimental on stderr when it loads: that line would greet every release, every start of
 * the path unit and every tick of the timer in the journal, so it is left out (the lock relies on
 * nothing experimental: a transaction on a rollback journal). Every other warning is printed as
 * Node prints it. The site's service does the same for its store; the release imports nothing from
 * the service's insides, hence this small copy.
 */
import type * as Sqlite from "node:sqlite";

let quieted = false;

function quietSqliteWarning(): void {
  if (quieted) return;
  quieted = true;
  // Node's own printer (and any other listener) keeps every warning but this one.
  const others = process.listeners("warning");
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.name === "ExperimentalWarning" && /\bSQLite\b/.test(warning.message)) return;
    for (const listener of others) listener(warning);
  });
}

export function nodeSqlite(): typeof Sqlite {
  quietSqliteWarning();
  return process.getBuiltinModule("node:sqlite");
}
