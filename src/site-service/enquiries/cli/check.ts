/**
 * `enquiries check [--backup FILE|-]`: whether the store answers, whether its migrations are those of
 * this code, whether the outbox delivers, and (--backup) whether a backup opens. deploy/server/doctor
 * runs it as the service's user, with the service's settings, and turns each line into one of its own.
 *
 * Each line is `<part>: ok: <what>`, `<part>: PROBLEM: <what>` or `<part>: skipped: <why>`, part
 * being store, migrations, outbox or backup; exit code 1 when a line is a PROBLEM. Like `status`, it says counts, times
 * and
 * the store's place, never anything of a visitor's: doctor e-mails its lines.
 *
 * It changes nothing it looks at. The schema is read without migrating (a store behind its code is
 * what it reports; the service migrates as it starts), and the outbox only once the schema is the
 * code's (reading it through the store would migrate it). No alert is opened or e-mailed (`status`
 * does that). A backup is restored into a temporary store of its own (a private folder under the
 * temporary folder), which is removed afterwards, whatever happened.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import type { EnquiryConfig } from "../core/config";
import { assess, formatAge } from "../outbox/alerts";
import { webhookDestination } from "../outbox/webhook";
import { restoreBackup } from "../store/backup";
import type { Engine } from "../store/engine";
import { readMigrations } from "../store/migrations";
import { settingsEngine, storeOver } from "../store/open-store";
import { SQLITE_FILE } from "../store/sqlite-engine";
import type { CliOutput } from "./cli-output";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
/** An error as one line: a driver's message may run over several. */
const oneLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim().slice(0, 300);

export async function check(
  config: EnquiryConfig,
  backup: string | undefined,
  io: CliOutput,
  now: () => number,
  stdin: Readable,
): Promise<number> {
  let problems = 0;
  const say: Say = (part, problem, what) => {
    if (problem === true) problems += 1;
    io.out(`${part}: ${problem === "skipped" ? "skipped" : problem ? "PROBLEM" : "ok"}: ${what}`);
  };
  await checkStore(config, say, now);
  if (backup !== undefined) await checkBackup(config, backup === "-" ? stdin : backup, say);
  return problems > 0 ? 1 : 0;
}

/** problem: true for a PROBLEM line, "skipped" for a part not looked at (the line says why). */
type Say = (part: string, problem: boolean | "skipped", what: string) => void;

async function checkStore(config: EnquiryConfig, say: Say, now: () => number): Promise<void> {
  // Opening a SQLite store that is not there would make an empty one: the service's to make.
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, SQLITE_FILE))) {
    say("store", true, `no store at ${path.join(config.dataDir, SQLITE_FILE)} (the service makes it as it starts)`);
    return;
  }
  const engine = settingsEngine(config, { connections: 1, log: { warn: () => undefined } });
  try {
    try {
      await engine.open();
    } catch (error) {
      say("store", true, `${engine.where} does not answer: ${oneLine(error)}`);
      return;
    }
    say("store", false, `${engine.where} answers (${engine.kind === "sqlite" ? "SQLite" : "PostgreSQL"})`);
    if (!(await checkMigrations(engine, say))) {
      say("outbox", "skipped", "not read while the store's schema is not the code's: reading it would migrate it");
      return;
    }
    await checkOutbox(engine, config, say, now);
  } catch (error) {
    say("store", true, `${engine.where}: ${oneLine(error)}`);
  } finally {
    await engine.close();
  }
}

/** True when the store's schema is the one this code migrates to (or a newer one it may use). */
async function checkMigrations(engine: Engine, say: Say): Promise<boolean> {
  const known = readMigrations(engine.kind);
  const code = Math.max(0, ...known.map((m) => m.version));
  const [table] = await engine.all<{ n: unknown }>(
    engine.kind === "sqlite"
      ? "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
      : "SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'schema_migrations'",
  );
  const rows =
    Number(table?.n ?? 0) > 0
      ? await engine.all<Record<string, unknown>>("SELECT * FROM schema_migrations")
      : ([] as Record<string, unknown>[]);
  const applied = new Set(rows.map((r) => Number(r.version)));
  const version = Math.max(0, ...applied);
  // Rows without compatible_from were written by code that knew nothing newer than their own version.
  const needed = Math.max(0, ...rows.map((r) => Number(r.compatible_from ?? r.version)));
  if (needed > code) {
    say(
      "migrations",
      true,
      `schema version ${version}, written by newer code: it needs the code of schema version ${needed} or later, and this code knows ${code}`,
    );
    return false;
  }
  const missing = known.filter((m) => !applied.has(m.version)).map((m) => m.name.replace(/\.sql$/, ""));
  if (missing.length > 0) {
    say(
      "migrations",
      true,
      `schema version ${version}, the code's ${code}: ${plural(missing.length, "migration", "migrations")} not applied (${missing.join(", ")})`,
    );
    return false;
  }
  say(
    "migrations",
    false,
    version > code
      ? `schema version ${version}, newer than the code's (${code}), which can use it`
      : `schema version ${version}, the code's`,
  );
  return true;
}

async function checkOutbox(engine: Engine, config: EnquiryConfig, say: Say, now: () => number): Promise<void> {
  const store = storeOver(engine, config);
  const stopped = new Set<string>();
  if (config.webhook) {
    const destination = webhookDestination(config.webhook);
    if (await store.isStopped(destination.name, destination.settingHash)) stopped.add(destination.name);
  }
  const at = now();
  const statuses = assess(await store.backlog(), at, stopped);
  const each = statuses.map((s) => {
    const age = formatAge(at - Date.parse(s.oldestReceivedAt));
    return `${s.channel}: ${s.failing ? `${s.failing}; ` : ""}${s.waiting} waiting, the oldest received ${age} ago`;
  });
  const failing = statuses.filter((s) => s.failing);
  if (failing.length > 0) say("outbox", true, each.join("; "));
  else say("outbox", false, each.length > 0 ? each.join("; ") : "nothing waiting");
}

async function checkBackup(config: EnquiryConfig, input: string | Readable, say: Say): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-check-"));
  try {
    const restored = await restoreBackup({ ...config, dataDir: dir, databaseUrl: undefined }, input, {
      erasures: [],
      by: { at: new Date().toISOString() },
    });
    say(
      "backup",
      false,
      `opens in a temporary store: made ${restored.madeAt ? `at ${restored.madeAt}` : "at a time it does not say"}, ` +
        `schema version ${restored.schemaFrom}, ${plural(restored.enquiries, "enquiry", "enquiries")}, ` +
        `${plural(restored.people, "person", "people")} of the inbox`,
    );
  } catch (error) {
    say("backup", true, `it does not open: ${oneLine(error)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
