/**
 * The inbox's search and paging on each engine, with enough enquiries that a page is a small part of
 * them: a word most enquiries hold, a rare one, an address, words together, with filters and across
 * pages, each equal to what reading every enquiry finds. On PostgreSQL the trigram index of
 * migration 006 is made when pg_trgm can be created, and a role that may not create it still gets
 * the migration applied, the service started and the same answers (a scan).
 */
import pg from "pg";
import type { EnquiryStore, StoredEnquiry } from "../../src/site-service/enquiries/store/store";
import { InboxStore, type ListFilter } from "../../src/site-service/enquiries/store/inbox-store";
import { settingsEngine } from "../../src/site-service/enquiries/store/open-store";
import { ENGINES, engineUnderTest } from "./support/engines";

const COUNT = 240;
const START = Date.parse("2026-01-01T00:00:00Z");

const enquiry = (n: number): StoredEnquiry => ({
  id: `enq-${String(n).padStart(4, "0")}`,
  // Two enquiries share each received time: the page's key needs its seq too.
  receivedAt: new Date(START + Math.floor(n / 2) * 60_000).toISOString(),
  name: n % 40 === 7 ? `Zoë Pharmakon ${n}` : `Person ${n}`,
  phone: "",
  email: `person${n}@sponsor${n % 7}.example`,
  message: `A phase ${n % 4} study in ${n % 30 === 11 ? "pharmacokinetics and " : ""}oncology, number ${n}.`,
  screening: { verdict: "clean", signals: [] },
  delivery: "pending",
});

const ALL = Array.from({ length: COUNT }, (_, i) => enquiry(i + 1));

/** What the search should find, by reading every enquiry: newest first, as the list orders. */
function expected(filter: { words: string[]; status?: string }, status: Map<string, string>): string[] {
  return ALL.filter((e) => {
    const text = `${e.name} ${e.email} ${e.message}`.toLowerCase();
    return filter.words.every((w) => text.includes(w)) && (!filter.status || status.get(e.id) === filter.status);
  })
    .map((e) => e.id)
    .reverse();
}

/** Every page of the list, 25 at a time, through the page keys (at most 20 pages). */
async function everyPage(store: EnquiryStore, filter: ListFilter): Promise<string[]> {
  const ids: string[] = [];
  let after: { receivedAt: string; seq: number } | undefined;
  for (let page = 0; page < 20; page += 1) {
    const rows = await store.inbox.list(filter, after, 26);
    ids.push(...rows.slice(0, 25).map((r) => r.work.enquiryId));
    if (rows.length <= 25) return ids;
    const last = rows[24]!;
    after = { receivedAt: (last.data as { receivedAt: string }).receivedAt, seq: last.seq };
  }
  throw new Error("more than 20 pages");
}

async function filled(store: EnquiryStore): Promise<Map<string, string>> {
  for (const e of ALL) await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false });
  const status = new Map(ALL.map((e) => [e.id, "new"]));
  for (const e of ALL.filter((_, i) => i % 3 === 0)) {
    await store.inbox.changeWork(e.id, 1, { status: "in progress" }, undefined, e.receivedAt);
    status.set(e.id, "in progress");
  }
  return status;
}

async function searchAnswers(store: EnquiryStore, status: Map<string, string>): Promise<void> {
  const cases: Array<{ words: string[]; status?: "in progress" }> = [
    { words: ["oncology"] },
    { words: ["pharmacokinetics"] },
    { words: ["person123@sponsor4"] },
    { words: ["phase", "2", "oncology"] },
    { words: ["pharmacokinetics"], status: "in progress" },
    { words: ["zebrafish"] },
  ];
  for (const c of cases) {
    const want = expected(c, status);
    const filter: ListFilter = { search: c.words.join(" ").toUpperCase(), ...(c.status && { status: c.status }) };
    expect([c, await everyPage(store, filter)]).toEqual([c, want]);
  }
  expect(expected({ words: ["oncology"] }, status)).toHaveLength(COUNT);
  expect(expected({ words: ["pharmacokinetics"] }, status).length).toBeGreaterThan(5);
  // Without a search, every enquiry once, newest first, across the pages of equal times.
  expect(await everyPage(store, {})).toEqual(ALL.map((e) => e.id).reverse());
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("search and paging find what reading every enquiry finds", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    const status = await filled(store);
    await searchAnswers(store, status);
    // Again with a first window of 40 of the newest: pages and words that fill it, and those that do not.
    const db = settingsEngine(
      { dataDir: env.ENQUIRY_DATA_DIR, databaseUrl: env.DATABASE_URL, databaseConnections: 1 },
      { log: { warn: () => undefined } },
    );
    await db.open();
    try {
      const narrow = new InboxStore(db, () => store.ready(), 40);
      await searchAnswers({ inbox: narrow } as unknown as EnquiryStore, status);
    } finally {
      await db.close();
    }
    if (env.DATABASE_URL) {
      const [index] = await indexes(env.DATABASE_URL);
      expect(index).toMatch(/USING gin \(search_text .*gin_trgm_ops\)/);
    }
  }, 60_000);
});

describe("on postgres, a role that may not create pg_trgm", () => {
  const engine = engineUnderTest("postgres");
  afterEach(() => engine.cleanUp());

  test("the migration is applied without the index, and the search answers the same", async () => {
    const env = await engine.env();
    const url = new URL(env.DATABASE_URL!);
    const admin = new pg.Client({ connectionString: env.DATABASE_URL });
    await admin.connect();
    try {
      // No CREATE on the database (a trusted extension needs it); the schema's own tables, as the service's role.
      await admin.query("DO $$ BEGIN CREATE ROLE inbox_plain LOGIN; EXCEPTION WHEN duplicate_object THEN END $$");
      await admin.query(`REVOKE CREATE ON DATABASE ${url.pathname.slice(1)} FROM PUBLIC, inbox_plain`);
      await admin.query("GRANT ALL ON SCHEMA public TO inbox_plain");
    } finally {
      await admin.end();
    }
    url.username = "inbox_plain";
    const store = engine.open({ ...env, DATABASE_URL: url.toString() });
    const report = await store.ready();
    expect(report.migrationsApplied).toContain("006-inbox-search-index.sql");
    expect(await indexes(env.DATABASE_URL!)).toEqual([]);
    await searchAnswers(store, await filled(store));
  }, 60_000);
});

/** The definition of the inbox search's index, if there is one (PostgreSQL). */
async function indexes(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE indexname = 'enquiry_work_search'",
    );
    return rows.map((r) => r.indexdef);
  } finally {
    await client.end();
  }
}
