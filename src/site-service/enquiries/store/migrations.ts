/**
 * The store's schema: the numbered SQL files of migrations/<engine>/ (001-enquiries.sql, …), applied
 * in order at start, each once, recorded in schema_migrations. Several instances may start at once:
 * the whole run is one transaction under a lock (PostgreSQL: an advisory lock; SQLite: BEGIN
 * IMMEDIATE), so the second finds the first's work done. On PostgreSQL the run has bounds of its own
 * (the wait for that lock, each statement), not the 10 s every enquiry's statement has.
 *
 * Rolling back: each migration is additive, and says from which schema version code can still use
 * the database it leaves (`-- compatible-from: N` in its first lines; without it, its own version).
 * That value is recorded with it; code refuses to start only when the database asks for newer code
 * than itself, so the previous release keeps working on a database the next one migrated.
 */
import fs from "node:fs";
import path from "node:path";
import { findProjectRoot } from "../../service/env";
import type { Engine, Sql, TransactionBounds } from "./engine";

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** The oldest schema version whose code can use a database with this migration applied. */
  compatibleFrom: number;
}

const FILE = /^(\d{3})-[a-z0-9-]+\.sql$/;
const COMPATIBLE_FROM = /^--\s*compatible-from:\s*(\d+)\s*$/m;

/** The migration run's bounds on PostgreSQL unless the settings say otherwise (ENQUIRY_MIGRATION_*). */
export const MIGRATION_BOUNDS: TransactionBounds = { lockTimeoutMs: 30_000, statementTimeoutMs: 120_000 };

/** The database was migrated by newer code than this, and that code said this one cannot use it. */
export class SchemaTooNewError extends Error {
  override name = "SchemaTooNewError";
  readonly code = "ESCHEMA_TOO_NEW";
}

/** A lock wait or a statement of the migration run went past its bound (PostgreSQL). */
export class MigrationTimeoutError extends Error {
  override name = "MigrationTimeoutError";
  readonly code = "EMIGRATION_TIMEOUT";
}

/**
 * Next to this module when it runs from source (tsx, Jest); from the project root when a bundler
 * moved the code (the Gatsby Function's bundle runs with the project as its working folder).
 */
function migrationsFolder(kind: Engine["kind"]): string {
  const candidates = [
    path.join(__dirname, "migrations", kind),
    path.join(findProjectRoot(), "src/site-service/enquiries/store/migrations", kind),
  ];
  const found = candidates.find((dir) => fs.existsSync(dir));
  if (!found) throw new Error(`the store's migrations are missing (looked in ${candidates.join(", ")})`);
  return found;
}

export function readMigrations(kind: Engine["kind"]): Migration[] {
  const dir = migrationsFolder(kind);
  return fs
    .readdirSync(dir)
    .filter((name) => FILE.test(name))
    .sort()
    .map((name) => {
      const version = Number(FILE.exec(name)![1]);
      const sql = fs.readFileSync(path.join(dir, name), "utf8");
      const declared = COMPATIBLE_FROM.exec(sql)?.[1];
      return { version, name, sql, compatibleFrom: declared === undefined ? version : Number(declared) };
    });
}

/** Applies what is missing; resolves with the schema's version and the files applied now. */
export async function migrate(
  engine: Engine,
  bounds: TransactionBounds = MIGRATION_BOUNDS,
): Promise<{ version: number; applied: string[] }> {
  const migrations = readMigrations(engine.kind);
  const known = Math.max(0, ...migrations.map((m) => m.version));
  try {
    return await engine.transaction(async (sql) => {
      await engine.lock(sql, "cyrus-enquiry-store-migrations");
      await sql.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL)");
      await addCompatibleFrom(engine, sql);
      const rows = await sql.all<{ version: number; compatible_from: number | null }>(
        "SELECT version, compatible_from FROM schema_migrations",
      );
      const done = new Set(rows.map((r) => Number(r.version)));
      const newest = Math.max(0, ...done);
      // Rows without the value were written by code before it existed, of migrations it knew: their own version.
      const needed = Math.max(0, ...rows.map((r) => Number(r.compatible_from ?? r.version)));
      if (needed > known) {
        throw new SchemaTooNewError(
          `the enquiry store ${engine.where} has schema version ${newest}, written by newer code: it needs the code of ` +
            `schema version ${needed} or later, and this code knows schema version ${known}. Deploy the release ` +
            `that migrated it (or a later one); do not remove its migrations by hand.`,
        );
      }
      const applied: string[] = [];
      for (const migration of migrations) {
        if (done.has(migration.version)) continue;
        await sql.exec(migration.sql);
        await sql.run("INSERT INTO schema_migrations (version, name, compatible_from) VALUES ($1, $2, $3)", [
          migration.version,
          migration.name,
          migration.compatibleFrom,
        ]);
        applied.push(migration.name);
      }
      return { version: Math.max(newest, known), applied };
    }, bounds);
  } catch (error) {
    throw plainTimeout(error, engine, bounds);
  }
}

/**
 * schema_migrations' column for the value, added by the runner (not a numbered file: it is the
 * runner's own table). Nullable, so that earlier code, which writes (version, name), still can.
 */
async function addCompatibleFrom(engine: Engine, sql: Sql): Promise<void> {
  const [found] = await sql.all<{ n: number | string }>(
    engine.kind === "sqlite"
      ? "SELECT COUNT(*) AS n FROM pragma_table_info('schema_migrations') WHERE name = 'compatible_from'"
      : `SELECT COUNT(*) AS n FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'schema_migrations' AND column_name = 'compatible_from'`,
  );
  if (Number(found?.n ?? 0) === 0) await sql.exec("ALTER TABLE schema_migrations ADD COLUMN compatible_from integer");
}

/** PostgreSQL's lock_timeout (55P03) and statement_timeout (57014), as what happened and what to do. */
function plainTimeout(error: unknown, engine: Engine, bounds: TransactionBounds): unknown {
  const code = (error as { code?: unknown }).code;
  const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
  if (code === "55P03") {
    return new MigrationTimeoutError(
      `the enquiry store's migrations waited more than ${seconds(bounds.lockTimeoutMs)} for a lock on ${engine.where} ` +
        `(another instance migrating it, or a long transaction on its tables), and gave up; start again once it is ` +
        `done (ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS sets the wait)`,
    );
  }
  if (code === "57014") {
    return new MigrationTimeoutError(
      `a migration of the enquiry store ${engine.where} ran longer than ${seconds(bounds.statementTimeoutMs)} and was ` +
        `stopped (nothing of it was kept); ENQUIRY_MIGRATION_TIMEOUT_SECONDS sets the bound`,
    );
  }
  return error;
}
