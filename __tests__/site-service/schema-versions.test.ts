/**
 * The schema's versions, on each engine: a database migrated by newer code that says this code
 * cannot use it stops the service at start with a message naming both versions and what to do,
 * while a newer migration marked compatible is accepted (a rolled-back release keeps working). On
 * PostgreSQL, the migrations' wait for another instance's lock has a bound of its own, set by a
 * setting, and ends with a plain message.
 */
import path from "node:path";
import pg from "pg";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { readMigrations } from "../../src/site-service/enquiries/store/migrations";
import { openStore } from "../../src/site-service/enquiries/store/open-store";
import { SQLITE_FILE } from "../../src/site-service/enquiries/store/sqlite-engine";
import { nodeSqlite } from "../../src/site-service/enquiries/store/sqlite-module";
import { jsonLog, runEnquiryService } from "../../src/site-service/service/server";
import { ENGINES, engineUnderTest } from "./support/engines";
import { projectRoot } from "./support/harness";

type Env = { ENQUIRY_DATA_DIR: string; DATABASE_URL?: string };

/** Runs one statement on the store's database directly, as newer code's migration would have. */
async function write(env: Env, statement: string): Promise<void> {
  if (env.DATABASE_URL) {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  } else {
    const db = new (nodeSqlite().DatabaseSync)(path.join(env.ENQUIRY_DATA_DIR, SQLITE_FILE));
    try {
      db.exec(statement);
    } finally {
      db.close();
    }
  }
}

const known = (name: "sqlite" | "postgres") => Math.max(...readMigrations(name).map((m) => m.version));

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("a schema newer than the code, not marked compatible, stops the service and the CLI with a plain message", async () => {
    const env = await engine.env();
    await engine.open(env).ready();
    await write(
      env,
      "INSERT INTO schema_migrations (version, name, compatible_from) VALUES (990, '990-future.sql', 990)",
    );
    const lines: string[] = [];
    const code = await runEnquiryService(
      { ...env, ENQUIRY_PORT: "0" },
      jsonLog((line) => void lines.push(line)),
    );
    expect(code).toBe(1);
    const logged = lines.map((l) => JSON.parse(l) as Record<string, string>);
    const failure = logged.find((l) => l.msg === "cannot start the enquiry service");
    expect(failure?.error).toBe(
      `the enquiry store ${engine.open(env).where} has schema version 990, written by newer code: it needs the code of ` +
        `schema version 990 or later, and this code knows schema version ${known(name)}. Deploy the release that ` +
        "migrated it (or a later one); do not remove its migrations by hand.",
    );

    const err: string[] = [];
    const cli = runEnquiriesCli(["list"], env, { out: () => undefined, err: (l) => err.push(l) });
    await expect(cli).rejects.toThrow(/has schema version 990.*this code knows schema version/);
  });

  test("a newer additive migration marked compatible with this code is accepted", async () => {
    const env = await engine.env();
    await engine.open(env).ready();
    await write(env, "CREATE TABLE future_notes (id integer PRIMARY KEY)");
    await write(
      env,
      `INSERT INTO schema_migrations (version, name, compatible_from) VALUES (990, '990-future-notes.sql', ${known(name)})`,
    );
    const report = await engine.open(env).ready();
    expect(report).toMatchObject({ schemaVersion: 990, migrationsApplied: [] });
    const out: string[] = [];
    expect(await runEnquiriesCli(["list"], env, { out: (l) => out.push(l), err: () => undefined })).toBe(0);
    expect(out.at(-1)).toMatch(/^0 enquiries in /);
  });

  test("a database of the code before compatible_from existed gets the column, its rows read as their own version", async () => {
    const env = await engine.env();
    // As the earlier code left it: schema_migrations without the column, 001 and 002 applied (what
    // 003 and later added undone).
    const store = engine.open(env);
    await store.ready();
    await store.close();
    await write(env, "DROP TABLE replies; DROP TABLE saved_answers; ALTER TABLE outbox DROP COLUMN channel");
    await write(env, "DROP TABLE audit; DROP TABLE history; DROP TABLE notes; DROP TABLE enquiry_work");
    await write(
      env,
      "DROP TABLE challenges; DROP TABLE sessions; DROP TABLE invitations; DROP TABLE passkeys; DROP TABLE people",
    );
    await write(
      env,
      name === "sqlite"
        ? "DROP TRIGGER enquiry_work_new"
        : "DROP TRIGGER enquiry_work_new ON enquiries; DROP FUNCTION enquiry_work_new()",
    );
    await write(env, "DROP INDEX enquiries_newest");
    await write(env, "DROP TABLE alerts");
    await write(env, "DROP TABLE erasure_log; DROP TABLE backups");
    await write(env, "DROP TABLE operator_notice_attempts; DROP TABLE operator_notices");
    await write(env, "ALTER TABLE outbox DROP COLUMN claim_token");
    await write(env, "DELETE FROM schema_migrations WHERE version > 2");
    await write(env, "ALTER TABLE schema_migrations DROP COLUMN compatible_from");
    const report = await engine.open(env).ready();
    expect(report.migrationsApplied).toEqual(
      readMigrations(name)
        .filter((m) => m.version > 2)
        .map((m) => m.name),
    );
  });
});

describe("on postgres, the migrations' lock wait", () => {
  const engine = engineUnderTest("postgres");
  afterEach(() => engine.cleanUp());

  test("gives up after its own bound (a setting) with a plain message, not the statement's 10 s", async () => {
    const env = await engine.env();
    const holder = new pg.Client({ connectionString: env.DATABASE_URL });
    await holder.connect();
    try {
      // Another instance in the middle of migrating: it holds the migrations' advisory lock.
      await holder.query("BEGIN");
      await holder.query("SELECT pg_advisory_xact_lock(hashtext('cyrus-enquiry-store-migrations'))");
      const config = loadConfig({ ...env, ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS: "1" }, projectRoot);
      const store = openStore(config, { log: { warn: () => undefined } });
      await expect(store.ready()).rejects.toThrow(
        /^the enquiry store's migrations waited more than 1 s for a lock on postgresql:\/\/127\.0\.0\.1:\d+\/enquiries_\d+ \(another instance migrating it, or a long transaction on its tables\), and gave up; start again once it is done \(ENQUIRY_MIGRATION_LOCK_TIMEOUT_SECONDS sets the wait\)$/,
      );
      await store.close();
      await holder.query("ROLLBACK");
      // Once the other is done, the same store starts.
      const again = openStore(config, { log: { warn: () => undefined } });
      expect((await again.ready()).migrationsApplied.length).toBeGreaterThan(0);
      await again.close();
    } finally {
      await holder.end();
    }
  });
});
