/**
 * Backups that are restored, with the erasures made since (src/site-service/enquiries/store/backup,
 * ./erasure-log), through the operator's commands. The drill, on each engine: 200 enquiries with
 * owners, notes and history made through the store and the inbox's store; `backup`; 3 addresses
 * erased; the erasure log written beside the backup; the server wiped (its data folder removed, its
 * database dropped) and started fresh; `restore` with the log: the 197 others come back with their
 * work state, notes and history, the erased ones do not, the inbox lists the 197; no erased address
 * is in the backup folder's log or anywhere in the restored store. Then: an age-encrypted backup
 * (not readable without its identity, restored with it) and a GPG-encrypted one; the refusals (a store that is not
 * empty, no
 * log given, a file that is no backup); erasures made without the key or with another (said, exit
 * code 1, replayed once the key is set); an enquiry received after its address was erased stays.
 */
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import type { EnquiryStore, StoredEnquiry } from "../../src/site-service/enquiries/store/store";
import type { TestPostgres } from "../support/postgres";
import { ENGINES, engineUnderTest, type EngineName } from "./support/engines";
import { anotherEnquiry, tempDir } from "./support/harness";

const HOUR = 3600_000;
const T0 = Date.parse("2026-11-20T09:00:00Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();
const AFTER_ALL = T0 + 1000 * HOUR;
const ERASED = [17, 101, 188];
/** The erased addresses as the requests gave them (any case), and as stored. */
const erasedAddress = (n: number) => `Erase.Me.${n}@Example.IN`;
const newKey = () => crypto.randomBytes(32).toString("base64");

const enquiry = (
  n: number,
  email = ERASED.includes(n) ? erasedAddress(n) : `person${n}@example.in`,
): StoredEnquiry => ({
  id: `enq-${n}`,
  receivedAt: at(n * 60_000),
  ...anotherEnquiry(`drill ${n}`),
  name: `Visitor ${n} Q`,
  email,
  delivery: "pending",
});

async function add(store: EnquiryStore, e: StoredEnquiry): Promise<void> {
  expect(await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false })).toEqual({});
}

type Env = Record<string, string> & { ENQUIRY_DATA_DIR: string };

/** The command line as the operator runs it; now: its clock (the erasures' times). */
async function cli(env: Env, args: string[], now = AFTER_ALL) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runEnquiriesCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, () => now);
  return { code, out, err };
}

/** pg_dump and psql of the server's version or later: its own bin folder, or Debian's of a major as high. */
function pgTools(server: TestPostgres): string {
  const candidates = [server.binaries.bin];
  if (fs.existsSync("/usr/lib/postgresql")) {
    for (const major of fs.readdirSync("/usr/lib/postgresql").sort((a, b) => Number(b) - Number(a))) {
      if (Number(major) >= Number(server.binaries.version.split(".")[0]))
        candidates.push(`/usr/lib/postgresql/${major}/bin`);
    }
  }
  const found = candidates.find(
    (bin) => fs.existsSync(path.join(bin, "pg_dump")) && fs.existsSync(path.join(bin, "psql")),
  );
  if (!found) {
    throw new Error(
      `no pg_dump and psql of PostgreSQL ${server.binaries.version} or later (looked in ${candidates.join(", ")})`,
    );
  }
  return found;
}

/** Every file under dir (recursively) holding one of the needles: "file: needle". */
function found(dir: string, needles: string[]): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const bytes = fs.readFileSync(path.join(entry.parentPath, entry.name));
    for (const needle of needles) if (bytes.includes(Buffer.from(needle))) hits.push(`${entry.name}: ${needle}`);
  }
  return hits;
}

const needles = (ns: number[]) =>
  ns.flatMap((n) => [
    erasedAddress(n),
    erasedAddress(n).toLowerCase(),
    `Visitor ${n} Q`,
    `visitor ${n} q`,
    `drill ${n})`,
  ]);

/** Each enquiry's work, notes and history, by id. */
async function workOf(store: EnquiryStore, ids: string[]) {
  const all: Record<string, unknown> = {};
  for (const id of ids) {
    all[id] = {
      work: await store.inbox.work(id),
      notes: await store.inbox.notes(id),
      history: await store.inbox.history(id),
    };
  }
  return all;
}

describe.each(ENGINES)("on %s", (name: EngineName) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  /** The settings of a server: the store's, the erasure key, and on PostgreSQL where pg_dump is. */
  async function serverEnv(key: string): Promise<Env> {
    const env: Env = { ...(await engine.env()), ENQUIRY_ERASURE_KEY: key };
    if (name === "postgres") env.ENQUIRY_PG_BIN = pgTools(engine.server()!);
    return env;
  }

  /** The server's store wiped: its data folder removed, its database dropped. */
  async function wipe(env: Env): Promise<void> {
    await engine.cleanUp();
    fs.rmSync(env.ENQUIRY_DATA_DIR!, { recursive: true, force: true });
    if (env.DATABASE_URL) {
      const url = new URL(env.DATABASE_URL);
      const admin = new pg.Client({
        host: url.hostname,
        port: Number(url.port),
        user: "postgres",
        database: "postgres",
      });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE ${url.pathname.slice(1)} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    }
  }

  test("the drill: 200 with their work, backup, 3 addresses erased, the server wiped, restored: 197 back as they were", async () => {
    const key = newKey();
    const env = await serverEnv(key);
    const store = engine.open(env);
    const inbox = store.inbox;
    for (let n = 0; n < 200; n += 1) await add(store, enquiry(n));
    for (const [email, person] of [
      ["ana@cyrus.example", "Ana Lima"],
      ["ben@cyrus.example", "Ben Okafor"],
      ["chi@cyrus.example", "Chi Eze"],
    ] as const) {
      await inbox.invite(email, person, `hash-${email}`, at(0), at(24 * HOUR));
    }
    const people = (await inbox.people(at(0))).map((p) => p.id);
    // Owners and statuses for every other enquiry (the erased ones too), notes for every fifth.
    for (let n = 0; n < 200; n += 1) {
      const id = `enq-${n}`;
      if (n % 2 === 0) {
        const status = (["in progress", "answered", "closed"] as const)[n % 3]!;
        const change = await inbox.changeWork(
          id,
          1,
          { ownerId: people[n % 3]!, status },
          people[0],
          at(300 * HOUR + n),
        );
        expect(change.outcome).toBe("changed");
      }
      if (n % 5 === 0)
        expect(await inbox.addNote(id, people[1], `called back about study ${n}`, at(301 * HOUR + n))).toBe(true);
    }
    const ids = Array.from({ length: 200 }, (_, n) => `enq-${n}`);
    const before = await workOf(store, ids);

    // Backed up; then 3 addresses erased (as the requests gave them), and the log written beside.
    const backups = tempDir("enquiry-backups-");
    const file = path.join(backups, name === "sqlite" ? "enquiries.sqlite" : "enquiries.sql");
    const made = await cli(env, ["backup", "--out", file]);
    expect(made).toEqual({
      code: 0,
      out: [
        expect.stringMatching(/^backup of .* \((sqlite|postgres), schema version \d+\) made at .*: \d+ (KiB|MiB) in /),
      ],
      err: [],
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    for (const n of ERASED) {
      expect(await cli(env, ["erase", "--email", erasedAddress(n)])).toMatchObject({
        code: 0,
        out: [expect.stringMatching(/^erased 1 enquiry of that address/)],
      });
    }
    const log = await cli(env, ["erasure-log"]);
    expect(log.code).toBe(0);
    expect(log.out).toHaveLength(1 + ERASED.length);
    fs.writeFileSync(path.join(backups, "erasures.log"), `${log.out.join("\n")}\n`, { mode: 0o600 });

    // The server wiped, and a fresh one started (its service made an empty store), with the same settings.
    await wipe(env);
    const fresh = await serverEnv(key);
    const started = engine.open(fresh);
    expect((await started.list()).enquiries).toEqual([]);
    await started.close();

    const restored = await cli(fresh, ["restore", file, "--erasures", path.join(backups, "erasures.log")]);
    expect(restored).toEqual({
      code: 0,
      out: [
        expect.stringMatching(
          /^restored the backup made at 2\S+Z \(schema version \d+\) into .*: 200 enquiries, 3 people of the inbox$/,
        ),
        "erasures made after the backup: 3 of 3 replayed, removing 3 enquiries",
        expect.stringMatching(/^ended 0 sessions and 3 unused invitations of the backup: everyone signs in again/),
      ],
      err: [],
    });

    const back = engine.open(fresh);
    const kept = ids.filter((id) => !ERASED.map((n) => `enq-${n}`).includes(id));
    expect((await back.list()).enquiries.map((e) => e.id).sort()).toEqual([...kept].sort());
    const listed = await back.inbox.list({}, undefined, 500);
    expect(listed).toHaveLength(197);
    expect(listed.filter((e) => e.work.ownerId !== undefined)).toHaveLength(
      kept.filter((id) => Number(id.slice(4)) % 2 === 0).length,
    );
    const after = await workOf(back, ids);
    for (const id of kept) expect(after[id]).toEqual(before[id]);
    for (const n of ERASED) expect(after[`enq-${n}`]).toEqual({ work: undefined, notes: [], history: [] });
    expect(await back.inbox.countFrom(erasedAddress(17))).toBe(0);
    // The audit says it, without the address.
    expect((await back.inbox.audit()).at(-1)).toMatchObject({
      action: "erase",
      subject: "3 enquiries: 3 erasures replayed after a restore",
    });
    await back.close();

    // No erased address in the erasure log, nor in any file of the restored store's folder; on
    // PostgreSQL, in no row of any table.
    expect(found(backups, needles(ERASED)).filter((hit) => !hit.startsWith(path.basename(file)))).toEqual([]);
    expect(found(fresh.ENQUIRY_DATA_DIR!, needles(ERASED))).toEqual([]);
    expect(found(fresh.ENQUIRY_DATA_DIR!, ["Visitor 18 Q", "person18@example.in"]).length).toBe(
      name === "sqlite" ? 2 : 0,
    );
    if (fresh.DATABASE_URL) {
      const client = new pg.Client({ connectionString: fresh.DATABASE_URL });
      await client.connect();
      try {
        const tables = await client.query<{ tablename: string }>(
          "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()",
        );
        for (const { tablename } of tables.rows) {
          const rows = await client.query(`SELECT t::text AS row FROM "${tablename}" t`);
          const text = rows.rows.map((r: { row: string }) => r.row).join("\n");
          for (const needle of needles(ERASED))
            expect(`${tablename}: ${text.includes(needle)}`).toBe(`${tablename}: false`);
        }
      } finally {
        await client.end();
      }
    }
  }, 120_000);

  test("refused, nothing changed: a store that is not empty, no erasure log given, a file that is no backup", async () => {
    const env = await serverEnv(newKey());
    const store = engine.open(env);
    await add(store, enquiry(1));
    const backups = tempDir("enquiry-backups-");
    const file = path.join(backups, "copy");
    expect((await cli(env, ["backup", "--out", file])).code).toBe(0);
    // --out names a new file: an existing one is not overwritten.
    await expect(cli(env, ["backup", "--out", file])).rejects.toThrow(/EEXIST/);

    const notEmpty = await cli(env, ["restore", file, "--no-erasure-log"]);
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.err).toEqual([
      expect.stringMatching(
        /holds 1 enquiry and 0 people of the inbox: a backup is restored into an empty store only .*nothing was changed$/,
      ),
    ]);
    expect((await store.list()).enquiries).toHaveLength(1);

    const fresh = await serverEnv(newKey());
    expect(await cli(fresh, ["restore", file])).toEqual({
      code: 2,
      out: [],
      err: [expect.stringMatching(/^restore needs the newest erasure log \(--erasures FILE/)],
    });
    const junk = path.join(backups, "junk");
    fs.writeFileSync(junk, "not a backup\n");
    expect(await cli(fresh, ["restore", junk, "--no-erasure-log"])).toEqual({
      code: 1,
      out: [],
      err: [
        "the file is not a backup of the enquiry store (neither a SQLite database nor a pg_dump of plain SQL); nothing was changed",
      ],
    });
    const log = path.join(backups, "torn.log");
    fs.writeFileSync(log, "v1 1234 then\n");
    expect(await cli(fresh, ["restore", file, "--erasures", log])).toEqual({
      code: 1,
      out: [],
      err: [`${log}, line 1: not a line of an erasure log; nothing was changed`],
    });
    if (name === "postgres") {
      // A PostgreSQL backup, and settings of a SQLite store.
      const sqlite = { ...fresh, DATABASE_URL: "" };
      expect(await cli(sqlite, ["restore", file, "--no-erasure-log"])).toMatchObject({
        code: 1,
        err: [expect.stringMatching(/^this is a backup of a PostgreSQL store, and the settings name a SQLite store/)],
      });
    }
    expect((await engine.open(fresh).list()).enquiries).toEqual([]);
  }, 60_000);

  test("erasures made without the key, and under another: said, exit code 1; replayed once the key is set", async () => {
    const key = newKey();
    const env = await serverEnv(key);
    const store = engine.open(env);
    for (const n of [1, 2, 3]) await add(store, enquiry(n, `someone${n}@example.in`));
    const backups = tempDir("enquiry-backups-");
    const file = path.join(backups, "copy");
    expect((await cli(env, ["backup", "--out", file])).code).toBe(0);
    // One erased while the key was missing from the settings, one under another key, one under this one.
    const { ENQUIRY_ERASURE_KEY: _unset, ...withoutKey } = env;
    const otherKey = newKey();
    expect((await cli(withoutKey, ["erase", "--email", "someone1@example.in"])).code).toBe(0);
    expect(
      (await cli({ ...env, ENQUIRY_ERASURE_KEY: otherKey }, ["erase", "--email", "someone2@example.in"])).code,
    ).toBe(0);
    expect((await cli(env, ["erase", "--email", "someone3@example.in"])).code).toBe(0);
    const logFile = path.join(backups, "erasures.log");
    fs.writeFileSync(logFile, `${(await cli(env, ["erasure-log"])).out.join("\n")}\n`);
    expect(fs.readFileSync(logFile, "utf8")).toMatch(/^v1 [0-9a-f-]{36} \S+Z - -$/m);

    const fresh = await serverEnv(key);
    const restored = await cli(fresh, ["restore", file, "--erasures", logFile]);
    expect(restored.code).toBe(1);
    expect(restored.out[1]).toBe("erasures made after the backup: 1 of 3 replayed, removing 1 enquiry");
    expect(restored.err).toEqual([
      expect.stringMatching(
        /^warning: 1 erasure made after the backup was logged without a hash \(ENQUIRY_ERASURE_KEY was not set then\) and cannot be replayed: erase those addresses again/,
      ),
      expect.stringMatching(
        /^warning: 1 erasure made after the backup was logged under another ENQUIRY_ERASURE_KEY .* replay-erasures --erasures/,
      ),
    ]);
    const emails = async () => (await engine.open(fresh).list()).enquiries.map((e) => e.email).sort();
    expect(await emails()).toEqual(["someone1@example.in", "someone2@example.in"]);
    // With the key the other was made with: replayed. The one without a hash is not said again.
    const again = await cli({ ...fresh, ENQUIRY_ERASURE_KEY: otherKey }, ["replay-erasures", "--erasures", logFile]);
    expect(again).toEqual({
      code: 0,
      out: [expect.stringMatching(/^in /), "erasures made after the backup: 1 of 1 replayed, removing 1 enquiry"],
      err: [],
    });
    expect(await emails()).toEqual(["someone1@example.in"]);
  }, 60_000);

  test("an enquiry received after its address was erased stays; one received before goes", async () => {
    const key = newKey();
    const env = await serverEnv(key);
    const store = engine.open(env);
    await add(store, enquiry(1, "Returning@Example.in"));
    await add(store, { ...enquiry(500, "returning@example.in"), receivedAt: at(5 * HOUR) });
    const backups = tempDir("enquiry-backups-");
    const file = path.join(backups, "copy");
    expect((await cli(env, ["backup", "--out", file])).code).toBe(0);
    // Erased at 3 h (another server with the same key, say), so the backup lacks the erasure.
    const elsewhere = await serverEnv(key);
    expect((await cli(elsewhere, ["erase", "--email", "returning@example.in"], T0 + 3 * HOUR)).code).toBe(0);
    const logFile = path.join(backups, "erasures.log");
    fs.writeFileSync(logFile, `${(await cli(elsewhere, ["erasure-log"])).out.join("\n")}\n`);

    const fresh = await serverEnv(key);
    const restored = await cli(fresh, ["restore", file, "--erasures", logFile]);
    expect(restored).toMatchObject({
      code: 0,
      out: [
        expect.anything(),
        "erasures made after the backup: 1 of 1 replayed, removing 1 enquiry",
        expect.anything(),
      ],
    });
    expect((await engine.open(fresh).list()).enquiries.map((e) => e.id)).toEqual(["enq-500"]);
  }, 60_000);
});

describe("encrypted", () => {
  const engine = engineUnderTest("sqlite");
  afterEach(() => engine.cleanUp());
  const hasAge = spawnSync("age", ["--version"]).status === 0;
  const hasGpg = spawnSync("gpg", ["--version"]).status === 0;

  (hasAge ? test : test.skip)(
    "with age: not a database without its identity; restored with it; no erased address in the backup folder",
    async () => {
      const key = newKey();
      const env = { ...(await engine.env()), ENQUIRY_ERASURE_KEY: key };
      const store = engine.open(env);
      for (const n of [1, 17, 2]) await add(store, enquiry(n));
      const backups = tempDir("enquiry-backups-");
      const identity = path.join(tempDir("enquiry-identity-"), "identity.txt");
      expect(spawnSync("age-keygen", ["-o", identity]).status).toBe(0);
      const recipient = /public key: (age1\S+)/.exec(fs.readFileSync(identity, "utf8"))![1]!;
      const plain = path.join(backups, "plain");
      expect((await cli(env, ["backup", "--out", plain])).code).toBe(0);
      // What deploy/server/backup does with the copy: age, to the owner's recipient.
      const file = path.join(backups, "enquiries.sqlite.age");
      expect(spawnSync("age", ["--encrypt", "--recipient", recipient, "--output", file, plain]).status).toBe(0);
      fs.rmSync(plain);
      expect((await cli(env, ["erase", "--email", erasedAddress(17)])).code).toBe(0);
      fs.writeFileSync(path.join(backups, "erasures.log"), `${(await cli(env, ["erasure-log"])).out.join("\n")}\n`);

      const bytes = fs.readFileSync(file);
      expect(bytes.subarray(0, 15).toString("latin1")).not.toBe("SQLite format 3");
      expect(found(backups, [...needles([1, 17, 2]), "enquiries", "CREATE TABLE"])).toEqual([]);

      const fresh = { ...(await engine.env()), ENQUIRY_ERASURE_KEY: key };
      const log = path.join(backups, "erasures.log");
      expect(await cli(fresh, ["restore", file, "--erasures", log])).toEqual({
        code: 1,
        out: [],
        err: [
          "the backup is encrypted (age): give its identity with --identity (the age identity file); nothing was changed",
        ],
      });
      const wrong = path.join(tempDir("enquiry-identity-"), "other.txt");
      expect(spawnSync("age-keygen", ["-o", wrong]).status).toBe(0);
      const refused = await cli(fresh, ["restore", file, "--erasures", log, "--identity", wrong]);
      expect(refused).toMatchObject({
        code: 1,
        err: [expect.stringMatching(/^the backup could not be decrypted with .*other\.txt: age failed/)],
      });

      const restored = await cli(fresh, ["restore", file, "--erasures", log, "--identity", identity]);
      expect(restored).toMatchObject({
        code: 0,
        out: [
          expect.stringMatching(/: 3 enquiries, 0 people/),
          "erasures made after the backup: 1 of 1 replayed, removing 1 enquiry",
          expect.anything(),
        ],
      });
      expect((await engine.open(fresh).list()).enquiries.map((e) => e.id)).toEqual(["enq-1", "enq-2"]);
      expect(found(backups, needles([17]))).toEqual([]);
      expect(found(fresh.ENQUIRY_DATA_DIR, needles([17]))).toEqual([]);
      // Nothing decrypted is left beside the store.
      expect(fs.readdirSync(fresh.ENQUIRY_DATA_DIR).filter((f) => f.startsWith("."))).toEqual([]);
    },
    60_000,
  );

  (hasGpg ? test : test.skip)(
    "with GPG: restored with the secret key file as its identity",
    async () => {
      const key = newKey();
      const env = { ...(await engine.env()), ENQUIRY_ERASURE_KEY: key };
      const store = engine.open(env);
      for (const n of [1, 2]) await add(store, enquiry(n));
      const home = tempDir("enquiry-gpg-");
      try {
        const gpg = (...args: string[]) =>
          spawnSync("gpg", [
            "--batch",
            "--quiet",
            "--homedir",
            home,
            "--pinentry-mode",
            "loopback",
            "--passphrase",
            "",
            ...args,
          ]);
        expect(
          gpg("--quick-gen-key", "Cyrus backups <backups@example.org>", "default", "default", "never").status,
        ).toBe(0);
        const secret = path.join(home, "secret.asc");
        fs.writeFileSync(secret, gpg("--armor", "--export-secret-keys").stdout, { mode: 0o600 });
        const backups = tempDir("enquiry-backups-");
        const plain = path.join(backups, "plain");
        expect((await cli(env, ["backup", "--out", plain])).code).toBe(0);
        const file = path.join(backups, "enquiries.sqlite.gpg");
        const encrypted = gpg(
          "--trust-model",
          "always",
          "--recipient",
          "backups@example.org",
          "--output",
          file,
          "--encrypt",
          plain,
        );
        expect(encrypted.status).toBe(0);
        fs.rmSync(plain);

        const fresh = { ...(await engine.env()), ENQUIRY_ERASURE_KEY: key };
        expect(await cli(fresh, ["restore", file, "--no-erasure-log"])).toMatchObject({
          code: 1,
          err: [
            "the backup is encrypted (GPG): give its identity with --identity (the GPG secret key file); nothing was changed",
          ],
        });
        const restored = await cli(fresh, ["restore", file, "--no-erasure-log", "--identity", secret]);
        expect(restored).toMatchObject({
          code: 0,
          out: [expect.stringMatching(/: 2 enquiries, 0 people/), expect.anything(), expect.anything()],
        });
        expect((await engine.open(fresh).list()).enquiries.map((e) => e.id)).toEqual(["enq-1", "enq-2"]);
      } finally {
        spawnSync("gpgconf", ["--homedir", home, "--kill", "gpg-agent"]);
        fs.rmSync(home, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
