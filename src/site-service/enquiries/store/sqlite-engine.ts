/**
 * The default engine: one SQLite file in ENQUIRY_DATA_DIR through Node's built-in node:sqlite (no
 * native build). WAL with synchronous=FULL makes each commit durable before it returns; both are
 * read back at start, since a file system that cannot do WAL silently keeps another journal mode.
 * secure_delete (Node's SQLite is built without it) zeroes what a deletion frees, so that an erased
 * enquiry's bytes do not stay in the file; scrub() then empties the WAL, which holds older copies.
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

const BUSY_TIMEOUT_MS = 5000;
/** scrub(): each try waits this long for readers of an older snapshot to finish. */
const CHECKPOINT_WAIT_MS = 1000;
const CHECKPOINT_TRIES = 3;
/**
 * PRAGMA user_version once the file was rewritten with secure_delete on: a file written before
 * keeps old copies of rows in its free space (a page split leaves the moved cells' bytes behind).
 */
const SCRUBBED_VERSION = 1;

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
        let rewritten = "";
        try {
          opened.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA foreign_keys = ON`);
          const mode = opened.prepare("PRAGMA journal_mode = WAL").get() as { journal_mode: string };
          opened.exec("PRAGMA synchronous = FULL");
          const sync = opened.prepare("PRAGMA synchronous").get() as { synchronous: number };
          opened.exec("PRAGMA secure_delete = ON");
          const secure = opened.prepare("PRAGMA secure_delete").get() as { secure_delete: number };
          if (mode.journal_mode !== "wal" || sync.synchronous !== 2 || secure.secure_delete !== 1) {
            throw new Error(
              `${file}: journal_mode ${mode.journal_mode}, synchronous ${sync.synchronous}, secure_delete ${secure.secure_delete} (wal, 2 and 1 needed)`,
            );
          }
          rewritten = rewriteOnce(opened);
          if (options.maxPageCount) opened.exec(`PRAGMA max_page_count = ${Math.floor(options.maxPageCount)}`);
        } catch (error) {
          opened.close();
          throw error;
        }
        db = opened;
        return `WAL, synchronous=FULL, secure_delete=ON${rewritten}`;
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
    scrub: () =>
      serial(() => {
        const opened = handle();
        // TRUNCATE waits (the busy handler) for readers of an older snapshot, which may still read
        // the deleted rows from the WAL; a few short tries rather than the writers' long wait.
        opened.exec(`PRAGMA busy_timeout = ${CHECKPOINT_WAIT_MS}`);
        try {
          for (let tried = 0; tried < CHECKPOINT_TRIES; tried += 1) {
            if (checkpoint(opened)) return undefined;
          }
        } finally {
          opened.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
        }
        return `${file}-wal could not be emptied (another connection kept reading an older state through ${CHECKPOINT_TRIES} tries): copies of what was removed may remain in it and in ${file} until it is`;
      }),
    close: () =>
      serial(() => {
        db?.close();
        db = undefined;
      }),
  };
}

/**
 * Copies every page of the WAL into the file, then truncates the WAL to nothing: true when done.
 * With secure_delete the pages copied have the deleted rows zeroed; the WAL's older frames, which
 * still hold them, go with the truncation.
 */
function checkpoint(db: DatabaseSync): boolean {
  const result = db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get() as { busy: number };
  return result.busy === 0;
}

/**
 * A file last written without secure_delete is rewritten once (VACUUM builds every page anew), so
 * that erasure from now on leaves nothing of the rows behind. When it cannot be (another process
 * writing, a full disk) the store still opens, saying so, and the next open tries again.
 */
function rewriteOnce(db: DatabaseSync): string {
  const { user_version: version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
  if (version >= SCRUBBED_VERSION) return "";
  try {
    db.exec("VACUUM");
    db.exec(`PRAGMA user_version = ${SCRUBBED_VERSION}`);
    checkpoint(db);
    return "";
  } catch (error) {
    return ` (free space of earlier versions not yet cleared: ${(error as Error).message}; next start tries again)`;
  }
}

/** $1, $2 … as SQLite's numbered ?1, ?2 …: the same statement text serves both engines. */
function positional(statement: string): string {
  return statement.replace(/\$(\d+)/g, "?$1");
}
