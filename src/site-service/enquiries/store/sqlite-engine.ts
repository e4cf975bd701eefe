/**
 * The default engine: one SQLite file in ENQUIRY_DATA_DIR through Node's built-in node:sqlite (no
 * native build). WAL with synchronous=FULL makes each commit durable before it returns; both are
 * read back at start, since a file system that cannot do WAL silently keeps another journal mode.
 */
import fs from "node:fs";
import type { DatabaseSync, SQLInputValue } from "node:sqlite";
import type { Engine, Sql, SqlValue } from "./engine";
import path from "node:path";
import { securePrivateFolder } from "./private-folder";
import { nodeSqlite } from "./sqlite-module";

export const SQLITE_FILE = "enquiries.sqlite";

/**
 * One queue per file and process. node:sqlite is synchronous: while a transaction awaits between
 * its statements, a second connection of the same process asking for the write lock would wait
 * in SQLite's busy handler with the event loop blocked, so the first could never commit. Other
 * processes wait in their own busy handler (busy_timeout) while this one goes on.
 */
const queues = new Map<string, Promise<unknown>>();

export interface SqliteOptions {
  /** Pages the file may grow to (PRAGMA max_page_count): a full disk, on purpose, for tests. */
  maxPageCount?: number;
}

export function sqliteEngine(dataDir: string, options: SqliteOptions = {}): Engine {
  const file = path.join(dataDir, SQLITE_FILE);
  let db: DatabaseSync | undefined;
  const serial = <T>(fn: () => T | Promise<T>): Promise<T> => {
    const next = (queues.get(file) ?? Promise.resolve()).then(fn, fn);
    queues.set(
      file,
      next.catch(() => undefined),
    );
    return next;
  };
  const handle = (): DatabaseSync => {
    if (!db) throw new Error(`the enquiry store ${file} is not open`);
    return db;
  };
  const params = (values: readonly SqlValue[]) => values as SQLInputValue[];
  const direct: Sql = {
    all: async <Row>(statement: string, values: readonly SqlValue[] = []) =>
      handle()
        .prepare(positional(statement))
        .all(...params(values)) as Row[],
    run: async (statement, values = []) =>
      Number(
        handle()
          .prepare(positional(statement))
          .run(...params(values)).changes,
      ),
    exec: async (script) => handle().exec(script),
  };

  return {
    kind: "sqlite",
    where: file,
    open: () =>
      serial(() => {
        if (db) return "already open";
        securePrivateFolder(dataDir);
        // Created private before SQLite opens it: its -wal and -shm files take the same permissions.
        fs.closeSync(fs.openSync(file, "a", 0o600));
        const opened = new (nodeSqlite().DatabaseSync)(file);
        try {
          opened.exec("PRAGMA busy_timeout = 5000; PRAGMA foreign_keys = ON");
          const mode = opened.prepare("PRAGMA journal_mode = WAL").get() as { journal_mode: string };
          opened.exec("PRAGMA synchronous = FULL");
          const sync = opened.prepare("PRAGMA synchronous").get() as { synchronous: number };
          if (mode.journal_mode !== "wal" || sync.synchronous !== 2) {
            throw new Error(
              `${file}: journal_mode ${mode.journal_mode}, synchronous ${sync.synchronous} (wal and 2 needed)`,
            );
          }
          if (options.maxPageCount) opened.exec(`PRAGMA max_page_count = ${Math.floor(options.maxPageCount)}`);
        } catch (error) {
          opened.close();
          throw error;
        }
        db = opened;
        return "WAL, synchronous=FULL";
      }),
    all: (statement, values) => serial(() => direct.all(statement, values)),
    run: (statement, values) => serial(() => direct.run(statement, values)),
    exec: (script) => serial(() => direct.exec(script)),
    transaction: (fn) =>
      serial(async () => {
        // IMMEDIATE takes the write lock at once: another process's writer waits (busy_timeout)
        // instead of both reading, then one failing to upgrade.
        handle().exec("BEGIN IMMEDIATE");
        try {
          const result = await fn(direct);
          handle().exec("COMMIT");
          return result;
        } catch (error) {
          if (handle().isTransaction) handle().exec("ROLLBACK");
          throw error;
        }
      }),
    lock: async () => undefined,
    close: () =>
      serial(() => {
        db?.close();
        db = undefined;
      }),
  };
}

/** $1, $2 … as SQLite's numbered ?1, ?2 …: the same statement text serves both engines. */
function positional(statement: string): string {
  return statement.replace(/\$(\d+)/g, "?$1");
}
