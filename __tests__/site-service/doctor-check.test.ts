/**
 * What deploy/server/doctor asks of the live release's CLI. `enquiries check` on each engine: the
 * store answers, its migrations are the code's, the outbox delivers; a store that is not there is
 * not made; a store behind its code (or ahead of it) is said and left as it was (not migrated); a
 * delivery failed for good, or waiting more than an hour, is a PROBLEM, told in counts and times
 * with nothing of the visitor's; `--backup -` restores a backup into a temporary store, says what it
 * holds, and leaves no temporary store behind; a file that is no backup is a PROBLEM.
 * `enquiries notify-operator` e-mails stdin to ENQUIRY_ALERT_TO through a real SMTP server on
 * loopback, printable characters only, and says what is missing when mail is not set up (that it
 * keeps the notice in the store and retries it: operator-notices.test.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { readMigrations } from "../../src/site-service/enquiries/store/migrations";
import { openStore, settingsEngine } from "../../src/site-service/enquiries/store/open-store";
import type { EnquiryStore, StoredEnquiry } from "../../src/site-service/enquiries/store/store";
import { parseMail } from "../support/mail";
import { startSmtp } from "../support/smtp";
import { ENGINES, engineUnderTest } from "./support/engines";
import { stoppedAfterEach, tempDir, validEnquiry } from "./support/harness";

const HOUR = 3600_000;
const T0 = Date.parse("2026-11-20T09:00:00Z");
const CODE = Math.max(...readMigrations("sqlite").map((m) => m.version));
const VISITOR = [validEnquiry.name, validEnquiry.email, validEnquiry.phone, validEnquiry.message];
const stopAfter = stoppedAfterEach();

async function cli(args: string[], env: Record<string, string | undefined>, now = T0, input: string | Buffer = "") {
  const lines: string[] = [];
  const io = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
  const stdin = Readable.from(input.length > 0 ? [Buffer.from(input)] : []);
  const code = await runEnquiriesCli(args, env, io, () => now, stdin);
  return { code, lines, text: lines.join("\n") };
}

/** One statement on the store of these settings, as an operator's SQL client would run it. */
async function sql(
  env: { ENQUIRY_DATA_DIR: string; DATABASE_URL?: string },
  statement: string,
  params: (string | number)[],
) {
  const db = settingsEngine({ dataDir: env.ENQUIRY_DATA_DIR, databaseUrl: env.DATABASE_URL, databaseConnections: 1 });
  try {
    await db.open();
    return await db.run(statement, params);
  } finally {
    await db.close();
  }
}

const visitor = (id: string, receivedAt: number): StoredEnquiry => ({
  id,
  receivedAt: new Date(receivedAt).toISOString(),
  ...validEnquiry,
  delivery: "pending",
});

/** Stored with its e-mail row, and that row tried: failed for good, or to be tried again later. */
async function undelivered(store: EnquiryStore, e: StoredEnquiry, forGood: boolean): Promise<void> {
  await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
    { destination: "email", messageId: `msg_${e.id}` },
  ]);
  const [claim] = await store.claimDue(
    "email",
    e.receivedAt,
    new Date(Date.parse(e.receivedAt) + 60_000).toISOString(),
    1,
  );
  await store.recordAttempt(claim!, {
    at: e.receivedAt,
    outcome: "failed",
    detail: "550 mailbox unavailable",
    ...(forGood ? {} : { nextAt: new Date(Date.parse(e.receivedAt) + 10 * HOUR).toISOString() }),
  });
}

describe.each(ENGINES)("enquiries check on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("a store that answers, at the code's schema, with nothing waiting: every line ok, exit 0", async () => {
    const env = await engine.env();
    await engine.open(env).ready();
    const { code, lines } = await cli(["check"], env);
    expect(lines).toEqual([
      expect.stringMatching(`^store: ok: .* answers \\(${name === "sqlite" ? "SQLite" : "PostgreSQL"}\\)$`),
      `migrations: ok: schema version ${CODE}, the code's`,
      "outbox: ok: nothing waiting",
    ]);
    expect(code).toBe(0);
  });

  test("behind its code: the migrations not applied, named; the outbox not read; the store left behind", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    await store.ready();
    await store.close();
    const newest = readMigrations(name)
      .at(-1)!
      .name.replace(/\.sql$/, "");
    // As a store of the release before: the newest migration's row is not there.
    expect(await sql(env, "DELETE FROM schema_migrations WHERE version = $1", [CODE])).toBe(1);
    const { code, lines } = await cli(["check"], env);
    expect(lines.slice(1)).toEqual([
      `migrations: PROBLEM: schema version ${CODE - 1}, the code's ${CODE}: 1 migration not applied (${newest})`,
      "outbox: skipped: not read while the store's schema is not the code's: reading it would migrate it",
    ]);
    expect(code).toBe(1);
    // Still behind: the check migrated nothing.
    expect((await cli(["check"], env)).lines[1]).toMatch(/^migrations: PROBLEM: schema version \d+, the code's/);
  });

  test("a schema of newer code that this code cannot use: said so", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    await store.ready();
    await store.close();
    await sql(env, "INSERT INTO schema_migrations (version, name, compatible_from) VALUES ($1, $2, $1)", [
      CODE + 1,
      "999-future.sql",
    ]);
    const { code, lines } = await cli(["check"], env);
    expect(lines[1]).toBe(
      `migrations: PROBLEM: schema version ${CODE + 1}, written by newer code: it needs the code of schema version ${CODE + 1} or later, and this code knows ${CODE}`,
    );
    expect(code).toBe(1);
  });

  test("the outbox: failed for good, or waiting more than an hour, is a PROBLEM; in counts, nothing of the visitor's", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    await undelivered(store, visitor("enq-1", T0), true);
    await store.close();
    const failed = await cli(["check"], env, T0 + 5 * 60_000);
    expect(failed.lines[2]).toBe("outbox: PROBLEM: email: 1 failed for good; 1 waiting, the oldest received 5 min ago");
    expect(failed.code).toBe(1);
    for (const value of VISITOR) expect(failed.text).not.toContain(value);

    const env2 = await engine.env();
    const store2 = engine.open(env2);
    await undelivered(store2, visitor("enq-2", T0), false);
    await store2.close();
    const young = await cli(["check"], env2, T0 + 30 * 60_000);
    expect(young.lines[2]).toBe("outbox: ok: email: 1 waiting, the oldest received 30 min ago");
    expect(young.code).toBe(0);
    const old = await cli(["check"], env2, T0 + 2 * HOUR);
    expect(old.lines[2]).toBe(
      "outbox: PROBLEM: email: undelivered for 2 h 0 min; 1 waiting, the oldest received 2 h 0 min ago",
    );
    expect(old.code).toBe(1);
  });
});

describe("enquiries check on SQLite", () => {
  test("no store there: a PROBLEM, and none is made", async () => {
    const dir = path.join(tempDir(), "enquiries");
    const { code, lines } = await cli(["check"], { ENQUIRY_DATA_DIR: dir });
    expect(lines).toEqual([`store: PROBLEM: no store at ${dir}/enquiries.sqlite (the service makes it as it starts)`]);
    expect(code).toBe(1);
    expect(fs.existsSync(dir)).toBe(false);
  });

  test("--backup -: restored into a temporary store that is removed after; a file that is no backup is a PROBLEM", async () => {
    const env = { ENQUIRY_DATA_DIR: tempDir() };
    const store = openStore(
      { dataDir: env.ENQUIRY_DATA_DIR, databaseUrl: undefined, databaseConnections: 1 },
      { log: { warn: () => undefined } },
    );
    await store.add(visitor("enq-1", T0), { key: "enq-1", since: new Date(T0).toISOString(), ignoreFailed: false });
    await store.close();
    const file = path.join(tempDir(), "backup.sqlite");
    expect((await cli(["backup", "--out", file], env, T0 + HOUR)).code).toBe(0);
    const temporaries = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith("enquiry-check-"));
    const before = temporaries();

    const opened = await cli(["check", "--backup", "-"], env, T0, fs.readFileSync(file));
    expect(opened.lines).toContain(
      `backup: ok: opens in a temporary store: made at ${new Date(T0 + HOUR).toISOString()}, schema version ${CODE}, 1 enquiry, 0 people of the inbox`,
    );
    expect(opened.code).toBe(0);
    expect(temporaries()).toEqual(before);

    const notOne = await cli(["check", "--backup", "-"], env, T0, "not a backup\n");
    expect(notOne.lines).toContain(
      "backup: PROBLEM: it does not open: the file is not a backup of the enquiry store (neither a SQLite database nor a pg_dump of plain SQL); nothing was changed",
    );
    expect(notOne.code).toBe(1);
    expect(temporaries()).toEqual(before);
    // The store itself is as it was.
    expect((await cli(["list"], env)).text).toMatch(/^1 enquiry in /m);
  });
});

describe("enquiries notify-operator", () => {
  test("stdin to ENQUIRY_ALERT_TO through SMTP_URL, printable only; without mail set up, said", async () => {
    const smtp = stopAfter(await startSmtp());
    const env = {
      ENQUIRY_DATA_DIR: tempDir(),
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      ENQUIRY_TO: "desk@cyrus.example",
      ENQUIRY_ALERT_TO: "ops@cyrus.example",
    };
    const body = "ok:      one\nPROBLEM: two \u001b[31mred\u001b[0m — do this\n";
    const sent = await cli(["notify-operator", "--subject", "Website server: 1 problem"], env, T0, body);
    // No store in that folder (the service makes it): sent all the same, not kept for a retry
    // (operator-notices.test.ts: kept in the store, retried).
    expect(sent).toMatchObject({
      code: 0,
      lines: [
        `the operator was e-mailed (ENQUIRY_ALERT_TO, else ENQUIRY_TO); the notice was not stored (no store at ${env.ENQUIRY_DATA_DIR}/enquiries.sqlite: the service makes it as it starts)`,
      ],
    });
    expect(smtp.messages).toHaveLength(1);
    const [message] = smtp.messages;
    expect(message!.rcptTo).toEqual(["ops@cyrus.example"]);
    const mail = parseMail(message!.raw);
    expect(mail.header("subject")).toBe("Website server: 1 problem");
    expect(mail.header("x-operator-notice")).toBe("1");
    expect(mail.text.replace(/\r\n/g, "\n")).toBe("ok:      one\nPROBLEM: two [31mred[0m — do this");

    // ENQUIRY_TO when no ENQUIRY_ALERT_TO.
    await cli(["notify-operator", "--subject", "s"], { ...env, ENQUIRY_ALERT_TO: "" }, T0, "x\n");
    expect(smtp.messages[1]!.rcptTo).toEqual(["desk@cyrus.example"]);

    expect(
      await cli(["notify-operator", "--subject", "s"], { ENQUIRY_DATA_DIR: env.ENQUIRY_DATA_DIR }, T0, "x"),
    ).toEqual({
      code: 1,
      lines: [
        "cannot e-mail the operator: SMTP_URL and ENQUIRY_ALERT_TO (or ENQUIRY_TO) not set in the service's settings",
      ],
      text: expect.any(String),
    });
    expect((await cli(["notify-operator"], env, T0, "x")).code).toBe(2);
    expect((await cli(["notify-operator", "--subject", "s"], env, T0, "")).code).toBe(2);
    expect(smtp.messages).toHaveLength(2);
  });
});
