/**
 * node:sqlite, loaded when a SQLite store first opens rather than when this code is imported: Node 22
 * announces it as experimental on stderr when it loads, and the service and the CLI must have put
 * their own warning handler in place by then (./quiet-warnings), or the service's JSON log would get
 * a line of plain text. A store on PostgreSQL never loads it.
 */
import type * as Sqlite from "node:sqlite";

export function nodeSqlite(): typeof Sqlite {
  return process.getBuiltinModule("node:sqlite");
}
