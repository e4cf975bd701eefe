/**
 * Backups of the store, and putting one back (`enquiries backup`, `restore`, `erasure-log`,
 * `replay-erasures`; deploy/server/backup runs them for the timer and for root's restore).
 *
 * A backup is one consistent copy, written as a stream: SQLite's `VACUUM INTO` (a new file built
 * from one read transaction, while the service goes on writing), or `pg_dump` (one snapshot) as
 * plain SQL. Just before it is taken, a row of `backups` records the time, so the copy says when it
 * was made. The copy is made by the store's own user; whoever keeps it (root, for the timer) only
 * encrypts and writes the bytes, and never reads them as a database.
 *
 * Restoring puts a backup into an empty store only (a fresh server, a new database): the store that
 * is there must hold no enquiry and no person. The file is decrypted first when it is encrypted and
 * an identity is given (age, or GPG), checked (SQLite: the file is a database with the store's
 * tables; PostgreSQL: a pg_dump of plain SQL, loaded in one transaction by psql), migrated (a backup
 * of an older schema), and then the erasures made after it are replayed (./erasure-log): every
 * entry of the logs given that the backup's own log lacks removes the enquiries of its address
 * received until then. Sessions, sign-in challenges and unused invitations of the backup are ended:
 * everyone signs in again, and a link sent before the backup cannot be used twice.
 *
 * Files of personal data this writes in the data folder on the way (the SQLite copy, the file being
 * restored) are private (600), removed when done, and removed by the next backup or restore when a
 * crash left one.
 */
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { EnquiryConfig } from "../core/config";
import { isoTime, type Engine, type Sql } from "./engine";
import { addressHash, erasureKeyId, insertErasure, readErasures, type ErasureEntry } from "./erasure-log";
import { insertAudit, type ErasureRecord } from "./inbox-store";
import { readMigrations } from "./migrations";
import { settingsEngine, storeOver, type StoreConfig } from "./open-store";
import { securePrivateFolder } from "./private-folder";
import { SQLITE_FILE } from "./sqlite-engine";
import { nodeSqlite } from "./sqlite-module";

export type BackupConfig = StoreConfig & Pick<EnquiryConfig, "erasureKey" | "pgBin">;

/** A backup's bytes start with one of these. */
const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");
const PG_DUMP_MAGIC = "-- PostgreSQL database dump";
const AGE_MAGIC = ["age-encryption.org/v1\n", "-----BEGIN AGE ENCRYPTED FILE-----"];
const GPG_ARMOR = "-----BEGIN PGP MESSAGE-----";

/** What a backup or a restore left behind when it stopped half-way: removed by the next one. */
const TEMPORARY = /^\.(?:backup-[0-9a-f-]{36}\.sqlite|restore-[0-9a-f-]{36}\.part(?:\.plain)?)$/;

/** A restore that cannot go ahead: nothing was changed (the CLI says it and exits 1). */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export interface BackupMade {
  engine: "sqlite" | "postgres";
  where: string;
  madeAt: string;
  schemaVersion: number;
  bytes: number;
}

/** Writes a consistent copy of the store to `out` (the caller closes it). */
export async function makeBackup(config: BackupConfig, out: Writable, now: () => number): Promise<BackupMade> {
  removeTemporaries(config.dataDir);
  const engine = settingsEngine(config, { connections: 1 });
  const store = storeOver(engine, config);
  try {
    const { schemaVersion } = await store.ready();
    const madeAt = new Date(now()).toISOString();
    await engine.run("INSERT INTO backups (made_at) VALUES ($1)", [madeAt]);
    let bytes = 0;
    const counted = countingInto(out, (n) => (bytes += n));
    if (engine.kind === "sqlite") {
      const copy = path.join(config.dataDir, `.backup-${crypto.randomUUID()}.sqlite`);
      // Made private first: VACUUM INTO writes into an empty file it finds, keeping its mode.
      fs.closeSync(fs.openSync(copy, "wx", 0o600));
      try {
        await engine.run("VACUUM INTO $1", [copy]);
        await pipeline(fs.createReadStream(copy), counted);
      } finally {
        fs.rmSync(copy, { force: true });
      }
    } else {
      await pgDump(config, counted);
    }
    return { engine: engine.kind, where: engine.where, madeAt, schemaVersion, bytes };
  } finally {
    await store.close();
  }
}

/** The store's erasure log (./erasure-log), oldest first. */
export async function erasureLog(config: BackupConfig): Promise<ErasureEntry[]> {
  const engine = settingsEngine(config, { connections: 1 });
  const store = storeOver(engine, config);
  try {
    await store.ready();
    return await readErasures(engine);
  } finally {
    await store.close();
  }
}

export interface Replay {
  /** Entries of the logs given that the store's own log lacked (erasures made after the backup). */
  pending: number;
  replayed: number;
  /** Enquiries those removed. */
  enquiries: number;
  /** Pending entries made without ENQUIRY_ERASURE_KEY: they cannot be replayed (now logged as seen). */
  withoutKey: number;
  /** Pending entries made with another key (or with one, when none is set now): left pending. */
  otherKey: number;
}

export interface Restored {
  engine: "sqlite" | "postgres";
  where: string;
  /** When the backup was made (undefined: a copy not made by `enquiries backup`). */
  madeAt?: string;
  /** The backup's schema, and the store's after migrating it. */
  schemaFrom: number;
  schemaVersion: number;
  /** As the backup holds them (before the replay). */
  enquiries: number;
  people: number;
  replay: Replay;
  /** Sessions, challenges and unused invitations of the backup's, ended. */
  ended: { sessions: number; invitations: number };
  /** Set when a copy of what the replay removed may remain on disk for now (Engine.scrub). */
  incomplete?: string;
}

export interface RestoreOptions {
  /** The erasure logs to replay (parsed), newest or not: only entries the backup lacks count. */
  erasures: ErasureEntry[];
  /** An age identity file, or a GPG secret key file: decrypts an encrypted backup. */
  identity?: string;
  /** Who restores, and when: the audit's line of the replayed erasures. */
  by: ErasureRecord;
}

/** Puts the backup (a file, or a stream such as stdin) into the empty store of the settings. */
export async function restoreBackup(
  config: BackupConfig,
  input: string | Readable,
  options: RestoreOptions,
): Promise<Restored> {
  securePrivateFolder(config.dataDir);
  removeTemporaries(config.dataDir);
  await refuseUnlessEmpty(config);
  const file = path.join(config.dataDir, `.restore-${crypto.randomUUID()}.part`);
  try {
    await spool(input, file);
    if (options.identity) await decryptInPlace(file, options.identity);
    const kind = backupKind(file, options.identity !== undefined);
    const wanted = config.databaseUrl ? "postgres" : "sqlite";
    if (kind !== wanted) {
      throw new RestoreRefused(
        `this is a backup of a ${kind === "sqlite" ? "SQLite" : "PostgreSQL"} store, and the settings name a ` +
          `${wanted === "sqlite" ? "SQLite store (ENQUIRY_DATA_DIR)" : "PostgreSQL database (DATABASE_URL)"}: ` +
          `restore it with the settings of its own engine`,
      );
    }
    if (kind === "sqlite") placeSqlite(config.dataDir, file);
    else await loadPostgres(config, file);
  } finally {
    fs.rmSync(file, { force: true });
  }

  const engine = settingsEngine(config, { connections: 1 });
  const store = storeOver(engine, config);
  try {
    await engine.open();
    const schemaFrom = Number(
      (await engine.all<{ v: unknown }>("SELECT max(version) AS v FROM schema_migrations"))[0]?.v ?? 0,
    );
    const [made] = (await hasTable(engine, "backups"))
      ? await engine.all<{ made_at: unknown }>("SELECT made_at FROM backups ORDER BY seq DESC LIMIT 1")
      : [];
    const { schemaVersion } = await store.ready();
    const enquiries = await count(engine, "enquiries");
    const replay = await replayErasures(engine, config.erasureKey, options.erasures, options.by);
    const ended = await engine.transaction(async (sql) => ({
      sessions: await sql.run("DELETE FROM sessions"),
      invitations: await sql.run("DELETE FROM invitations WHERE used_at IS NULL"),
      challenges: await sql.run("DELETE FROM challenges"),
    }));
    const incomplete = await engine.scrub();
    return {
      engine: engine.kind,
      where: engine.where,
      ...(made && { madeAt: isoTime(made.made_at) }),
      schemaFrom,
      schemaVersion,
      enquiries,
      people: await count(engine, "people"),
      replay,
      ended: { sessions: ended.sessions, invitations: ended.invitations },
      ...(incomplete && { incomplete }),
    };
  } finally {
    await store.close();
  }
}

/** `enquiries replay-erasures`: the logs' erasures that the store's own log lacks, replayed now. */
export async function replayInto(
  config: BackupConfig,
  erasures: ErasureEntry[],
  by: ErasureRecord,
): Promise<Replay & { where: string; incomplete?: string }> {
  const engine = settingsEngine(config, { connections: 1 });
  const store = storeOver(engine, config);
  try {
    await store.ready();
    const replay = await replayErasures(engine, config.erasureKey, erasures, by);
    const incomplete = await engine.scrub();
    return { ...replay, where: engine.where, ...(incomplete && { incomplete }) };
  } finally {
    await store.close();
  }
}

/**
 * Every entry that the store's log lacks, made with the key set now, removes the enquiries whose
 * address has its hash and that were received at or before its time (one from the same address
 * received after the erasure is a new enquiry, and stays). An address erased twice: its latest
 * erasure covers the earlier ones. The removal, the entries and the audit's line are one
 * transaction; entries made without a key are logged as seen (nothing could ever replay them),
 * those of another key are not (the right key may replay them later).
 */
async function replayErasures(
  engine: Engine,
  key: string | undefined,
  entries: ErasureEntry[],
  by: ErasureRecord,
): Promise<Replay> {
  const known = new Set((await readErasures(engine)).map((e) => e.entry));
  const pending = [...new Map(entries.map((e) => [e.entry, e])).values()].filter((e) => !known.has(e.entry));
  const keyId = key === undefined ? undefined : erasureKeyId(key);
  const withoutKey = pending.filter((e) => e.addressHash === undefined);
  const replayable = pending.filter((e) => e.addressHash !== undefined && e.keyId === keyId);
  const otherKey = pending.length - withoutKey.length - replayable.length;

  const until = new Map<string, number>();
  for (const e of replayable) until.set(e.addressHash!, Math.max(until.get(e.addressHash!) ?? 0, Date.parse(e.at)));
  const ids: string[] = [];
  if (key !== undefined && until.size > 0) {
    const hashes = new Map<string, string>();
    const rows = await engine.all<{ id: string; email: string; received_at: unknown }>(
      "SELECT id, email, received_at FROM enquiries",
    );
    for (const row of rows) {
      let hash = hashes.get(row.email);
      if (hash === undefined) hashes.set(row.email, (hash = addressHash(key, row.email)));
      const erasedAt = until.get(hash);
      if (erasedAt !== undefined && Date.parse(isoTime(row.received_at)) <= erasedAt) ids.push(row.id);
    }
  }
  let removed = 0;
  if (replayable.length + withoutKey.length > 0) {
    removed = await engine.transaction(async (sql: Sql) => {
      let n = 0;
      for (let i = 0; i < ids.length; i += 500) {
        const chunk = ids.slice(i, i + 500);
        n += await sql.run(`DELETE FROM enquiries WHERE id IN (${chunk.map((_, j) => `$${j + 1}`).join(", ")})`, chunk);
      }
      for (const entry of [...replayable, ...withoutKey]) await insertErasure(sql, entry);
      if (replayable.length > 0) {
        const what = `${n} ${n === 1 ? "enquiry" : "enquiries"}`;
        const erasures = `${replayable.length} erasure${replayable.length === 1 ? "" : "s"}`;
        await insertAudit(sql, by, "erase", `${what}: ${erasures} replayed after a restore`);
      }
      return n;
    });
  }
  return {
    pending: pending.length,
    replayed: replayable.length,
    enquiries: removed,
    withoutKey: withoutKey.length,
    otherKey,
  };
}

/** A store with enquiries or people is not replaced: restore only into an empty one. */
async function refuseUnlessEmpty(config: BackupConfig): Promise<void> {
  if (!config.databaseUrl && !fs.existsSync(path.join(config.dataDir, SQLITE_FILE))) return;
  const engine = settingsEngine(config, { connections: 1 });
  try {
    await engine.open();
    if (!(await hasTable(engine, "enquiries"))) return;
    const enquiries = await count(engine, "enquiries");
    const people = (await hasTable(engine, "people")) ? await count(engine, "people") : 0;
    if (enquiries + people === 0) return;
    throw new RestoreRefused(
      `the enquiry store ${engine.where} holds ${enquiries} enquir${enquiries === 1 ? "y" : "ies"} and ${people} ` +
        `${people === 1 ? "person" : "people"} of the inbox: a backup is restored into an empty store only ` +
        `(${config.databaseUrl ? "a new database" : "an empty ENQUIRY_DATA_DIR"}); nothing was changed`,
    );
  } finally {
    await engine.close();
  }
}

async function hasTable(sql: Sql & Pick<Engine, "kind">, name: string): Promise<boolean> {
  const [row] = await sql.all<{ n: unknown }>(
    sql.kind === "sqlite"
      ? "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = $1"
      : "SELECT count(*) AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1",
    [name],
  );
  return Number(row?.n ?? 0) > 0;
}

async function count(sql: Sql, table: "enquiries" | "people"): Promise<number> {
  const [row] = await sql.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`);
  return Number(row?.n ?? 0);
}

/** The input, whole, into a new private file. */
async function spool(input: string | Readable, file: string): Promise<void> {
  const source = typeof input === "string" ? fs.createReadStream(input) : input;
  await pipeline(source, fs.createWriteStream(file, { flags: "wx", mode: 0o600 }));
}

function head(file: string, bytes = 512): Buffer {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, bytes, 0));
  } finally {
    fs.closeSync(fd);
  }
}

function encryption(start: Buffer): "age" | "gpg" | undefined {
  const text = start.toString("latin1");
  if (AGE_MAGIC.some((magic) => text.startsWith(magic))) return "age";
  // An OpenPGP message: armored, or a first packet that is a session key (tags 1 and 3) or
  // encrypted data (tags 18, 20), in the old or the new packet format.
  if (text.startsWith(GPG_ARMOR)) return "gpg";
  const tag = start[0] ?? 0;
  if ((tag & 0x80) !== 0) {
    const packet = (tag & 0x40) !== 0 ? tag & 0x3f : (tag >> 2) & 0x0f;
    if ([1, 3, 18, 20].includes(packet)) return "gpg";
  }
  return undefined;
}

function backupKind(file: string, decrypted: boolean): "sqlite" | "postgres" {
  const start = head(file);
  if (start.subarray(0, SQLITE_MAGIC.length).equals(SQLITE_MAGIC)) return "sqlite";
  if (
    start
      .toString("utf8")
      .split("\n", 4)
      .some((line) => line.startsWith(PG_DUMP_MAGIC))
  )
    return "postgres";
  const encrypted = encryption(start);
  if (encrypted && !decrypted) {
    throw new RestoreRefused(
      `the backup is encrypted (${encrypted === "age" ? "age" : "GPG"}): give its identity with --identity ` +
        `(${encrypted === "age" ? "the age identity file" : "the GPG secret key file"}); nothing was changed`,
    );
  }
  throw new RestoreRefused(
    "the file is not a backup of the enquiry store (neither a SQLite database nor a pg_dump of plain SQL); nothing was changed",
  );
}

/** Decrypts the file into itself (through a second private file) with age or gpg. */
async function decryptInPlace(file: string, identity: string): Promise<void> {
  const kind = encryption(head(file));
  if (!kind) return; // not encrypted: the identity is not needed
  const plain = `${file}.plain`;
  const out = fs.createWriteStream(plain, { flags: "wx", mode: 0o600 });
  let home: string | undefined;
  try {
    if (kind === "age") {
      await run("age", ["--decrypt", "--identity", identity, file], out);
    } else {
      // A keyring of its own, for this once: the secret key file is imported there, not into anyone's.
      home = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-restore-gpg-"));
      const gpg = ["--batch", "--quiet", "--no-tty", "--homedir", home];
      await run("gpg", [...gpg, "--import", identity]);
      await run("gpg", [...gpg, "--decrypt", file], out);
    }
    fs.renameSync(plain, file);
  } catch (error) {
    throw new RestoreRefused(`the backup could not be decrypted with ${identity}: ${(error as Error).message}`);
  } finally {
    fs.rmSync(plain, { force: true });
    if (home) {
      // The agent gpg started for that keyring ends with it.
      await run("gpgconf", ["--homedir", home, "--kill", "gpg-agent"]).catch(() => undefined);
      fs.rmSync(home, { recursive: true, force: true });
    }
  }
}

/**
 * The copy becomes the store's file: read first (without trusting its schema) to see that it is a
 * whole database with the store's tables, then renamed over the empty store's, whose -wal and -shm
 * go (they are of the file replaced).
 */
function placeSqlite(dataDir: string, file: string): void {
  const db = new (nodeSqlite().DatabaseSync)(file, { readOnly: true });
  try {
    db.exec("PRAGMA trusted_schema = OFF");
    const check = db.prepare("PRAGMA quick_check").all() as Array<Record<string, unknown>>;
    const ok = check.length === 1 && Object.values(check[0]!)[0] === "ok";
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('schema_migrations', 'enquiries')")
      .all();
    if (!ok || tables.length !== 2) {
      throw new RestoreRefused(
        `the backup is ${ok ? "a SQLite database without the enquiry store's tables" : "a damaged SQLite database"}; nothing was changed`,
      );
    }
  } finally {
    db.close();
  }
  const store = path.join(dataDir, SQLITE_FILE);
  for (const suffix of ["-wal", "-shm"]) fs.rmSync(`${store}${suffix}`, { force: true });
  fs.renameSync(file, store);
}

/**
 * psql loads the dump in one transaction (a failure leaves the database as it was). The empty
 * store's own tables go first, in the same transaction: a fresh server's service made them, and a
 * newer release's tables would not be in an older backup. Only the store's tables (those its
 * migrations make) are dropped: a database shared with others keeps theirs.
 */
async function loadPostgres(config: BackupConfig, file: string): Promise<void> {
  const ours = new Set(["schema_migrations"]);
  for (const migration of readMigrations("postgres")) {
    for (const match of migration.sql.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?(\w+)/g)) ours.add(match[1]!);
  }
  const engine = settingsEngine(config, { connections: 1 });
  let present: string[];
  try {
    present = (
      await engine.all<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename",
      )
    )
      .map((r) => r.tablename)
      .filter((name) => ours.has(name));
  } finally {
    await engine.close();
  }
  const drop = present.length > 0 ? `DROP TABLE IF EXISTS ${present.map((t) => `"${t}"`).join(", ")} CASCADE;\n` : "";
  const { url, password } = withoutPassword(config.databaseUrl!);
  const psql = spawn(
    pgProgram(config, "psql"),
    ["--no-psqlrc", "--quiet", "--set", "ON_ERROR_STOP=1", "--single-transaction", "--dbname", url, "--file", "-"],
    { env: pgEnv(password), stdio: ["pipe", "ignore", "pipe"] },
  );
  const done = exited(psql, "psql", (stderr) =>
    // Only its ERROR lines: a DETAIL or a CONTEXT line may quote a row.
    stderr
      .split("\n")
      .filter((line) => /\bERROR:/.test(line))
      .join("; "),
  );
  const fed = (async () => {
    psql.stdin.write(drop);
    await pipeline(fs.createReadStream(file), psql.stdin);
  })().catch(() => undefined); // psql gone: its exit says why
  await Promise.all([fed, done]);
}

async function pgDump(config: BackupConfig, out: Writable): Promise<void> {
  const { url, password } = withoutPassword(config.databaseUrl!);
  const dump = spawn(
    pgProgram(config, "pg_dump"),
    [
      "--format=plain",
      // The restore drops what the dump creates before creating it; the objects are the restoring role's.
      "--clean",
      "--if-exists",
      "--no-owner",
      "--no-privileges",
      // COMMENT ON EXTENSION needs the extension's owner, which the restoring role may not be.
      "--no-comments",
      "--dbname",
      url,
    ],
    { env: pgEnv(password), stdio: ["ignore", "pipe", "pipe"] },
  );
  const done = exited(dump, "pg_dump", (stderr) => stderr.trim().split("\n").slice(0, 3).join("; "));
  await Promise.all([pipeline(dump.stdout!, out), done]);
}

function pgProgram(config: BackupConfig, name: "pg_dump" | "psql"): string {
  return config.pgBin ? path.join(config.pgBin, name) : name;
}

/** The URL without its password, which goes in PGPASSWORD: a command line is visible to every user. */
function withoutPassword(databaseUrl: string): { url: string; password?: string } {
  const url = new URL(databaseUrl);
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.password = "";
  return { url: url.toString(), ...(password !== undefined && { password }) };
}

function pgEnv(password: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: "10" };
  delete env.PGPASSWORD;
  if (password !== undefined) env.PGPASSWORD = password;
  return env;
}

/** Runs a program, its output into `out` (when given); rejects with its stderr's first lines. */
async function run(program: string, args: string[], out?: Writable): Promise<void> {
  const child = spawn(program, args, { stdio: ["ignore", out ? "pipe" : "ignore", "pipe"] });
  const done = exited(child, program, (stderr) => stderr.trim().split("\n").slice(0, 3).join("; "));
  await Promise.all([out ? pipeline(child.stdout!, out) : undefined, done]);
}

function exited(child: ChildProcess, name: string, summary: (stderr: string) => string): Promise<void> {
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    if (stderr.length < 16_384) stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("error", (error) => reject(new Error(`${name} could not be run: ${error.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${name} failed (${signal ?? `exit code ${code}`}): ${summary(stderr) || "no message"}`));
    });
  });
}

/** Passes the bytes on to `out`, counting them; `out` stays open for the caller. */
function countingInto(out: Writable, counted: (n: number) => void): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      counted(chunk.length);
      if (out.write(chunk)) callback();
      else out.once("drain", () => callback());
    },
  });
}

function removeTemporaries(dataDir: string): void {
  if (!fs.existsSync(dataDir)) return;
  for (const name of fs.readdirSync(dataDir)) {
    if (TEMPORARY.test(name)) fs.rmSync(path.join(dataDir, name), { force: true });
  }
}
