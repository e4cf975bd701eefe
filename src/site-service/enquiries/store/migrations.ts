/**
 * The store's schema: the numbered SQL files of migrations/<engine>/ (001-enquiries.sql, …), applied
 * in order at start, each once, recorded in schema_migrations. Several instances may start at once:
 * the whole run is one transaction under a lock (PostgreSQL: an advisory lock; SQLite: BEGIN
 * IMMEDIATE), so the second finds the first's work done.
 */
import fs from "node:fs";
import path from "node:path";
import { findProjectRoot } from "../../service/env";
import type { Engine } from "./engine";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE = /^(\d{3})-[a-z0-9-]+\.sql$/;

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
    .map((name) => ({
      version: Number(FILE.exec(name)![1]),
      name,
      sql: fs.readFileSync(path.join(dir, name), "utf8"),
    }));
}

/** Applies what is missing; resolves with the schema's version and the files applied now. */
export async function migrate(engine: Engine): Promise<{ version: number; applied: string[] }> {
  const migrations = readMigrations(engine.kind);
  return engine.transaction(async (sql) => {
    await engine.lock(sql, "cyrus-enquiry-store-migrations");
    await sql.exec("CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL)");
    const done = new Set(
      (await sql.all<{ version: number }>("SELECT version FROM schema_migrations")).map((r) => Number(r.version)),
    );
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await sql.exec(migration.sql);
      await sql.run("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        migration.version,
        migration.name,
      ]);
      applied.push(migration.name);
    }
    const newest = Math.max(0, ...done, ...migrations.map((m) => m.version));
    return { version: newest, applied };
  });
}
