/**
 * Erasure and retention reach the bytes on disk. SQLite: after `enquiries erase` from the command line
 * while the service runs (its store open, as a second instance's), and after the service's retention
 * purge, no value of a removed enquiry is left in any file of the data folder (the database, its -wal
 * and -shm, the lines an import set aside), as typed, lower-cased or JSON-escaped, while the others'
 * are still there and listed. PostgreSQL: no row of any table that referenced it.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createReceiver } from "../../src/site-service/enquiries/core/receiver";
import { enquiryRow, INSERT_ENQUIRY } from "../../src/site-service/enquiries/store/enquiry-row";
import { openStore } from "../../src/site-service/enquiries/store/open-store";
import { nodeSqlite } from "../../src/site-service/enquiries/store/sqlite-module";
import { SQLITE_FILE } from "../../src/site-service/enquiries/store/sqlite-engine";
import { newSecret, startWebhookSink } from "../support/webhook-sink";
import { engineUnderTest } from "./support/engines";
import {
  anotherEnquiry,
  memoryLog,
  projectRoot,
  startReceiver,
  stoppedAfterEach,
  tempDir,
  validEnquiry,
  type Harness,
} from "./support/harness";

const stopAfter = stoppedAfterEach();
const DAY = 24 * 3600 * 1000;
const NOW = Date.parse("2026-11-26T09:00:00Z");

/** The one to erase: a message long enough to spill onto overflow pages, with characters JSON escapes. */
const ZEB = {
  name: "Zebedee Quarrington",
  phone: "+44 20 7946 0958",
  email: "Zeb.Quarrington@Example.ORG",
  message: `Our "Xylocarpine" protocol\nneeds a quote. ${"Xylocarpine dosing, cohort and site details. ".repeat(90)}`,
};
/** Someone else's, who stays. */
const ARUN = { ...anotherEnquiry("stays"), name: "Arun Venkataraman", email: "arun.v@example.in" };

/** Each value as typed, lower-cased and as it reads inside JSON, and a word of the message on its own. */
function needles(person: typeof ZEB): string[] {
  const values = [person.name, person.phone, person.email, person.message, "Xylocarpine", "Quarrington"];
  const forms = values.flatMap((v) => [v, v.toLowerCase(), JSON.stringify(v).slice(1, -1)]);
  return [...new Set(forms)];
}

/** Every file under dir (recursively) in which one of the needles occurs, with the needle. */
function found(dir: string, wanted: string[]): string[] {
  const hits: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const bytes = fs.readFileSync(file);
    for (const needle of wanted) {
      if (bytes.includes(Buffer.from(needle, "utf8"))) hits.push(`${path.relative(dir, file)}: ${needle.slice(0, 40)}`);
    }
  }
  return hits;
}

/** The command line, as an operator runs it beside the service (same settings). */
function cli(env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const run = (...args: string[]) => runEnquiriesCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { run, out, err };
}

describe("on sqlite", () => {
  let clock = NOW;

  /**
   * The service with enquiries: Zeb's, twice (the address in two cases), among others; outbox rows with failed
   * attempts.
   */
  async function serviceWithEnquiries(env: Record<string, string> = {}): Promise<{ site: Harness; ids: string[] }> {
    clock = NOW;
    const secret = newSecret();
    const sink = stopAfter(await startWebhookSink(secret, () => ({ status: 500 })));
    const site = stopAfter(
      await startReceiver(
        { ENQUIRY_WEBHOOK_URL: sink.url, ENQUIRY_WEBHOOK_SECRET: secret, ...env },
        { now: () => clock, mailer: null },
      ),
    );
    const ids: string[] = [];
    const bodies = [
      ...Array.from({ length: 40 }, (_, i) => ({ ...anotherEnquiry(`before ${i}`), email: `before${i}@example.in` })),
      ZEB,
      ARUN,
      { ...ZEB, email: ZEB.email.toLowerCase(), message: `${ZEB.message} (again)` },
      ...Array.from({ length: 40 }, (_, i) => ({ ...anotherEnquiry(`after ${i}`), email: `after${i}@example.in` })),
    ];
    for (const body of bodies) {
      const answer = await site.post(body);
      expect(answer.status).toBe(201);
      ids.push(String(answer.body.id));
    }
    await site.receiver.drain();
    return { site, ids };
  }

  async function listedEmails(site: Harness): Promise<string[]> {
    return (await site.receiver.store.list()).enquiries.map((e) => e.email);
  }

  test("erase from the command line while the service runs: no byte of it left in the data folder", async () => {
    const { site, ids } = await serviceWithEnquiries();
    // A reply from the inbox to Zeb's first, in words that name his.
    const replied = await site.receiver.store.inbox.replies.add({
      enquiryId: ids[40]!, // the 40 before it, then Zeb's
      key: "draft-for-zeb",
      text: "Dear Zebedee Quarrington, about Xylocarpine dosing: yes.",
      subject: "Re: Website enquiry from Zebedee Quarrington",
      at: new Date(NOW).toISOString(),
      markAnswered: true,
    });
    expect(replied.outcome).toBe("added");
    // A second instance's store, open and idle as the service's is.
    const other = openStore({ dataDir: site.dir, databaseUrl: undefined, databaseConnections: 1 });
    try {
      expect((await other.list()).enquiries).toHaveLength(83);
      expect(found(site.dir, needles(ZEB)).length).toBeGreaterThan(0);
      const { run, out } = cli({ ENQUIRY_DATA_DIR: site.dir });
      expect(await run("erase", "--email", "zeb.quarrington@example.org")).toBe(0);
      expect(out).toEqual([
        expect.stringMatching(/^erased 2 enquiries of that address, with their delivery records, /),
      ]);
      expect(found(site.dir, needles(ZEB))).toEqual([]);
      // The others are still there, on disk and listed, and the service goes on storing.
      expect(found(site.dir, [ARUN.name, ARUN.email])).not.toEqual([]);
      const emails = await listedEmails(site);
      expect(emails).toHaveLength(81);
      expect(emails).toContain(ARUN.email);
      expect(emails.some((e) => /zeb/i.test(e))).toBe(false);
      expect((await site.post(anotherEnquiry("later"))).status).toBe(201);
      expect((await other.list()).enquiries).toHaveLength(82);
    } finally {
      await other.close();
    }
  }, 60_000);

  test("a reader holding an old snapshot: erase says the log could not be emptied; run again, it is", async () => {
    const { site } = await serviceWithEnquiries();
    const reader = new (nodeSqlite().DatabaseSync)(path.join(site.dir, SQLITE_FILE));
    const { run, out, err } = cli({ ENQUIRY_DATA_DIR: site.dir });
    try {
      reader.exec("BEGIN");
      reader.prepare("SELECT count(*) AS n FROM enquiries").get();
      expect(await run("erase", "--email", ZEB.email)).toBe(1);
      expect(out).toEqual([expect.stringMatching(/^erased 2 enquiries of that address/)]);
      expect(err).toEqual([expect.stringMatching(/could not be emptied .* run the same erase again/)]);
      expect(err.join("\n")).not.toMatch(/zeb/i);
      reader.exec("COMMIT");
    } finally {
      reader.close();
    }
    expect(await run("erase", "--email", ZEB.email)).toBe(0);
    expect(out.at(-1)).toMatch(/^erased 0 enquiries/);
    expect(found(site.dir, needles(ZEB))).toEqual([]);
    expect(await listedEmails(site)).toHaveLength(81);
  }, 60_000);

  test("the service's retention purge: no byte of an expired enquiry left; younger ones stay", async () => {
    const { site } = await serviceWithEnquiries({ ENQUIRY_RETENTION_DAYS: "30" });
    clock = NOW + 20 * DAY;
    const young = { ...anotherEnquiry("young"), name: "Meera Young", email: "meera@example.in" };
    expect((await site.post(young)).status).toBe(201);
    const reader = openStore({ dataDir: site.dir, databaseUrl: undefined, databaseConnections: 1 });
    try {
      await reader.list();
      clock = NOW + 31 * DAY;
      expect(await site.receiver.purgeExpired()).toBe(83);
      expect(found(site.dir, [...needles(ZEB), ARUN.name, ARUN.email])).toEqual([]);
      expect(found(site.dir, [young.name, young.email])).toHaveLength(2);
      expect((await reader.list()).enquiries.map((e) => e.email)).toEqual([young.email]);
    } finally {
      await reader.close();
    }
  }, 60_000);

  test("a file written before secure_delete was on is rewritten once: erase leaves nothing of it there either", async () => {
    // An earlier version's file: the rows written with secure_delete off, page splits leaving copies behind.
    const earlier = tempDir();
    const first = openStore({ dataDir: earlier, databaseUrl: undefined, databaseConnections: 1 });
    await first.ready();
    await first.close();
    const raw = new (nodeSqlite().DatabaseSync)(path.join(earlier, SQLITE_FILE));
    raw.exec("PRAGMA secure_delete = OFF; PRAGMA user_version = 0");
    const insert = raw.prepare(INSERT_ENQUIRY.replace(/\$(\d)/g, "?$1"));
    const people = [
      ...Array.from({ length: 40 }, (_, i) => ({ ...anotherEnquiry(`before ${i}`), email: `b${i}@example.in` })),
      ZEB,
      ...Array.from({ length: 300 }, (_, i) => ({ ...anotherEnquiry(`after ${i}`), email: `a${i}@example.in` })),
    ];
    people.forEach((person, i) => {
      const receivedAt = new Date(NOW - (people.length - i) * 60_000).toISOString();
      insert.run(...enquiryRow({ id: `earlier-${i}`, receivedAt, ...person, delivery: "pending" }));
    });
    raw.close();
    const site = stopAfter(
      await startReceiver({}, { mailer: null }, (dataDir) => fs.cpSync(earlier, dataDir, { recursive: true })),
    );
    fs.rmSync(earlier, { recursive: true, force: true });
    expect((await site.receiver.store.list()).enquiries).toHaveLength(341);
    const { run } = cli({ ENQUIRY_DATA_DIR: site.dir });
    expect(await run("erase", "--email", ZEB.email)).toBe(0);
    expect(found(site.dir, needles(ZEB))).toEqual([]);
    expect(await listedEmails(site)).toHaveLength(340);
  }, 60_000);

  describe("lines an import set aside", () => {
    let dir: string;
    beforeEach(() => (dir = path.join(tempDir(), "data")));
    afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

    /** An earlier version's JSON-lines files: one line each readable, torn lines of Zeb's and of others. */
    function writeOldFiles(dir: string, n: number, receivedAt: string) {
      const line = (id: string, person: object) => JSON.stringify({ id, receivedAt, ...person, delivery: "pending" });
      const torn = (id: string, person: object) => line(id, person).slice(0, -30);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.writeFileSync(
        path.join(dir, "enquiries.jsonl"),
        [
          line(`old-arun-${n}`, ARUN),
          torn(`torn-zeb-${n}`, ZEB),
          torn(`torn-arun-${n}`, { ...ARUN, receivedAt: undefined }),
          line(`old-zeb-${n}`, ZEB),
        ].join("\n") + "\n",
      );
      // A torn delivery line of Zeb's enquiry: it names the enquiry, not the address.
      fs.writeFileSync(
        path.join(dir, "deliveries.jsonl"),
        `{"id":"old-zeb-${n}","at":"${receivedAt}","delivery":"failed","error":"550 mailbox unavail\n`,
      );
    }

    const setAside = (dir: string) =>
      fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".unreadable"))
        .sort();

    test("each import's in a file of its own; erase removes Zeb's lines, by address or by enquiry, and keeps Arun's", async () => {
      writeOldFiles(dir, 1, new Date(NOW - 2 * DAY).toISOString());
      let store = openStore({ dataDir: dir, databaseUrl: undefined, databaseConnections: 1 }, { now: () => NOW });
      expect((await store.ready()).imported).toMatchObject({ enquiries: 2, unreadableLines: 3 });
      await store.close();
      writeOldFiles(dir, 2, new Date(NOW - 1 * DAY).toISOString());
      store = openStore({ dataDir: dir, databaseUrl: undefined, databaseConnections: 1 }, { now: () => NOW });
      expect((await store.ready()).imported).toMatchObject({ enquiries: 2, unreadableLines: 3 });
      await store.close();
      const files = setAside(dir);
      expect(files).toEqual([
        "deliveries.jsonl.20261126T090000000Z-2.unreadable",
        "deliveries.jsonl.20261126T090000000Z.unreadable",
        "enquiries.jsonl.20261126T090000000Z-2.unreadable",
        "enquiries.jsonl.20261126T090000000Z.unreadable",
      ]);
      expect(found(dir, ["torn-zeb-1", "torn-zeb-2", "torn-arun-1", "torn-arun-2"])).toHaveLength(4);

      const { run, out } = cli({ ENQUIRY_DATA_DIR: dir });
      expect(await run("erase", "--email", ZEB.email.toUpperCase())).toBe(0);
      expect(out).toEqual([
        expect.stringMatching(
          /^erased 2 enquiries of that address, with their delivery records, and 4 set-aside lines, /,
        ),
      ]);
      expect(found(dir, [...needles(ZEB), "old-zeb", "torn-zeb"])).toEqual([]);
      expect(found(dir, ["torn-arun-1", "torn-arun-2"])).toHaveLength(2);
      expect(setAside(dir)).toEqual(files.filter((f) => f.startsWith("enquiries")));
    });

    test("retention: a line goes by the time it gives, or, without one, by its import's", async () => {
      writeOldFiles(dir, 1, new Date(NOW - 100 * DAY).toISOString());
      clock = NOW;
      const log = memoryLog();
      const config = loadConfig({ ENQUIRY_DATA_DIR: dir, ENQUIRY_RETENTION_DAYS: "30" }, projectRoot);
      const receiver = createReceiver(config, { log, now: () => clock, mailer: null });
      try {
        // Imported on NOW, the lines' own time 100 days before: all but the timeless torn line go.
        expect((await receiver.store.ready()).imported).toMatchObject({ enquiries: 2, unreadableLines: 3 });
        clock = NOW + DAY;
        expect(await receiver.purgeExpired()).toBe(2);
        expect(log.lines.at(-1)).toMatch(/removed 2 enquiries and 2 set-aside lines received before/);
        expect(found(dir, [ARUN.name, ARUN.email])).toHaveLength(2);
        expect(found(dir, ["torn-arun-1"])).toHaveLength(1);
        clock = NOW + 31 * DAY;
        expect(await receiver.purgeExpired()).toBe(0);
        expect(log.lines.at(-1)).toMatch(/removed 0 enquiries and 1 set-aside line received before/);
        expect(found(dir, [ARUN.name, ARUN.email, ...needles(ZEB)])).toEqual([]);
        expect(setAside(dir)).toEqual([]);
      } finally {
        await receiver.close();
      }
    });
  });
});

describe("on postgres", () => {
  const engine = engineUnderTest("postgres");
  afterEach(() => engine.cleanUp());

  test("erase: no row left in any table that referenced the enquiry", async () => {
    const env = await engine.env();
    const secret = newSecret();
    const sink = stopAfter(await startWebhookSink(secret, () => ({ status: 500 })));
    const site = stopAfter(
      await startReceiver({ ...env, ENQUIRY_WEBHOOK_URL: sink.url, ENQUIRY_WEBHOOK_SECRET: secret }),
    );
    const ids: string[] = [];
    for (const body of [ZEB, ARUN, { ...validEnquiry, email: ZEB.email.toLowerCase() }]) {
      ids.push(String((await site.post(body)).body.id));
    }
    await site.receiver.drain();
    await site.receiver.store.recordDelivery({ id: ids[0]!, at: new Date().toISOString(), delivery: "failed" });
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    try {
      // Every table with a foreign key to enquiries or to a table that has one: all of them are counted.
      // (audit, invitations, passkeys, saved_answers and sessions refer to the inbox's people, not to an enquiry;
      // operator_notice_attempts to the operator's notices, which hold nothing of a visitor's.)
      const referencing = await db.query<{ table: string }>(
        `SELECT DISTINCT conrelid::regclass::text AS table FROM pg_constraint WHERE contype = 'f' ORDER BY 1`,
      );
      expect(referencing.rows.map((r) => r.table)).toEqual([
        "audit",
        "deliveries",
        "enquiry_work",
        "history",
        "invitations",
        "notes",
        "operator_notice_attempts",
        "outbox",
        "outbox_attempts",
        "passkeys",
        "replies",
        "reviews",
        "saved_answers",
        "sessions",
      ]);
      // The inbox's work on one of them: a note, a change in its history.
      const { inbox } = site.receiver.store;
      await inbox.addNote(ids[0]!, undefined, "Spoke to Zebedee Quarrington", new Date().toISOString());
      await inbox.changeWork(ids[0]!, 1, { status: "answered" }, undefined, new Date().toISOString());
      // A reply to it, with its own outbox row.
      const replied = await inbox.replies.add({
        enquiryId: ids[0]!,
        key: "draft-quarrington",
        text: "Dear Zebedee Quarrington",
        subject: "Re: Website enquiry from Zebedee Quarrington",
        at: new Date().toISOString(),
        markAnswered: true,
      });
      expect(replied.outcome).toBe("added");
      const zebs = [ids[0]!, ids[2]!];
      const rowsOf = async () => {
        const count = async (statement: string) =>
          Number((await db.query<{ n: string }>(statement, [zebs])).rows[0]!.n);
        return {
          enquiries: await count("SELECT count(*) AS n FROM enquiries WHERE id = ANY($1)"),
          deliveries: await count("SELECT count(*) AS n FROM deliveries WHERE enquiry_id = ANY($1)"),
          reviews: await count("SELECT count(*) AS n FROM reviews WHERE enquiry_id = ANY($1)"),
          outbox: await count("SELECT count(*) AS n FROM outbox WHERE enquiry_id = ANY($1)"),
          outbox_attempts: await count(
            "SELECT count(*) AS n FROM outbox_attempts a JOIN outbox o ON o.seq = a.outbox_seq WHERE o.enquiry_id = ANY($1)",
          ),
          enquiry_work: await count("SELECT count(*) AS n FROM enquiry_work WHERE enquiry_id = ANY($1)"),
          notes: await count("SELECT count(*) AS n FROM notes WHERE enquiry_id = ANY($1)"),
          history: await count("SELECT count(*) AS n FROM history WHERE enquiry_id = ANY($1)"),
          replies: await count("SELECT count(*) AS n FROM replies WHERE enquiry_id = ANY($1)"),
        };
      };
      const before = await rowsOf();
      expect(before).toEqual({
        enquiries: 2,
        deliveries: 1,
        reviews: 0,
        outbox: 3,
        outbox_attempts: 2,
        enquiry_work: 2,
        notes: 1,
        history: 3,
        replies: 1,
      });
      const attemptsBefore = Number(
        (await db.query<{ n: string }>("SELECT count(*) AS n FROM outbox_attempts")).rows[0]!.n,
      );
      const { run, out } = cli({ ...env, ENQUIRY_DATA_DIR: site.dir });
      expect(await run("erase", "--email", ZEB.email)).toBe(0);
      expect(out).toEqual([expect.stringMatching(/^erased 2 enquiries of that address/)]);
      expect(await rowsOf()).toEqual({
        enquiries: 0,
        deliveries: 0,
        reviews: 0,
        outbox: 0,
        outbox_attempts: 0,
        enquiry_work: 0,
        notes: 0,
        history: 0,
        replies: 0,
      });
      // The attempts of the erased outbox rows are gone, none is left pointing nowhere, Arun's stay.
      expect(Number((await db.query<{ n: string }>("SELECT count(*) AS n FROM outbox_attempts")).rows[0]!.n)).toBe(
        attemptsBefore - 2,
      );
      const left = await db.query<{ data: string }>("SELECT data::text AS data FROM enquiries");
      expect(left.rows.map((r) => r.data).join("\n")).not.toMatch(/quarrington|xylocarpine/i);
      expect(left.rows).toHaveLength(1);
    } finally {
      await db.end();
    }
  }, 90_000);
});
