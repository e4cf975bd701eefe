/**
 * The store, the same tests on SQLite and on a real PostgreSQL: migrations run once however many
 * instances start together, what is stored reads back exactly (the stored line's key order too),
 * duplicates are recognised across instances, JSON-lines files of earlier versions are imported
 * once, and a store that cannot take an enquiry says so instead of half-storing it.
 */
import fs from "node:fs";
import path from "node:path";
import { fingerprint } from "../../src/site-service/enquiries/core/duplicates";
import { readMigrations } from "../../src/site-service/enquiries/store/migrations";
import type { StoredEnquiry } from "../../src/site-service/enquiries/store/store";
import { ENGINES, engineUnderTest } from "./support/engines";
import { storedLineKeys, validEnquiry } from "./support/harness";

const FIXTURE = path.join(__dirname, "fixtures", "unversioned");
const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

const enquiry = (n: number | string, extra: Partial<StoredEnquiry> = {}): StoredEnquiry => ({
  id: `id-${n}`,
  receivedAt: new Date().toISOString(),
  ...validEnquiry,
  message: `Enquiry ${n}: ${"சோதனை ".repeat(3)}`,
  screening: { verdict: "clean", signals: [] },
  delivery: "pending",
  ...extra,
});
const rule = (e: StoredEnquiry, ignoreFailed = false) => ({ key: fingerprint(e), since: hourAgo(), ignoreFailed });

describe.each(ENGINES)("the store on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("four instances starting at once apply each migration once, and agree on the schema", async () => {
    const env = await engine.env();
    const reports = await Promise.all([1, 2, 3, 4].map(() => engine.open(env).ready()));
    const files = readMigrations(name).map((m) => m.name);
    expect(files.slice(0, 2)).toEqual(["001-enquiries.sql", "002-outbox.sql"]);
    expect(reports.flatMap((r) => r.migrationsApplied)).toEqual(files);
    const newest = Math.max(...readMigrations(name).map((m) => m.version));
    expect(new Set(reports.map((r) => r.schemaVersion))).toEqual(new Set([newest]));
    expect(reports[0]!.engine).toBe(name);
    if (name === "sqlite") expect(reports[0]!.checked).toBe("WAL, synchronous=FULL, secure_delete=ON");
  });

  test("an enquiry, its delivery attempts and a review read back as stored, in the stored line's key order", async () => {
    const store = engine.open(await engine.env());
    const suspect = enquiry(1, { screening: { verdict: "suspect", signals: ["honeypot"] } });
    expect(await store.add(suspect, rule(suspect))).toEqual({});
    await store.recordDelivery({
      id: suspect.id,
      at: "2026-11-20T09:30:01.000Z",
      delivery: "failed",
      error: "ECONNREFUSED",
    });
    await store.recordDelivery({
      id: suspect.id,
      at: "2026-11-20T09:40:01.000Z",
      delivery: "delivered",
      messageId: "<m1>",
    });
    expect(await store.recordReview({ id: suspect.id, at: "2026-11-21T10:00:00.000Z", review: "not-spam" })).toBe(true);
    expect(await store.recordReview({ id: suspect.id, at: "2026-11-22T10:00:00.000Z", review: "not-spam" })).toBe(
      false,
    );
    const [line] = await store.storedLines();
    expect(Object.keys(line!)).toEqual(storedLineKeys);
    expect((await store.list()).enquiries).toEqual([
      {
        ...suspect,
        delivery: "delivered",
        attempts: 2,
        lastAttemptAt: "2026-11-20T09:40:01.000Z",
        clearedAt: "2026-11-21T10:00:00.000Z",
      },
    ]);
  });

  test("two instances given the same 100 enquiries at once store each once, and answer the other with its id", async () => {
    const env = await engine.env();
    const stores = [engine.open(env), engine.open(env)];
    await Promise.all(stores.map((s) => s.ready()));
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const e = enquiry(i % 100, { id: `copy-${i}` });
        return stores[i < 100 ? 0 : 1]!.add(e, rule(e)).then((o) => ({ id: e.id, n: i % 100, ...o }));
      }),
    );
    const stored = outcomes.filter((o) => o.duplicateOf === undefined);
    expect(stored).toHaveLength(100);
    expect(new Set(stored.map((o) => o.n)).size).toBe(100);
    // Each duplicate names the copy that was stored.
    const storedIdOf = new Map(stored.map((o) => [o.n, o.id]));
    for (const o of outcomes.filter((x) => x.duplicateOf !== undefined))
      expect(o.duplicateOf).toBe(storedIdOf.get(o.n));
    expect((await stores[1]!.list()).enquiries).toHaveLength(100);
  });

  test("the duplicate window and an undelivered first copy (ENQUIRY_AWAIT_DELIVERY's resend)", async () => {
    const store = engine.open(await engine.env());
    const first = enquiry("w", { receivedAt: new Date(Date.now() - 2 * 3_600_000).toISOString() });
    await store.add(first, rule(first));
    const again = enquiry("w", { id: "again" });
    expect(await store.findDuplicate(rule(again))).toBeUndefined(); // older than the window (an hour here)
    const recent = enquiry("r");
    await store.add(recent, rule(recent));
    expect(await store.findDuplicate(rule(enquiry("r", { id: "x" })))).toBe(recent.id);
    await store.recordDelivery({ id: recent.id, at: new Date().toISOString(), delivery: "failed", error: "down" });
    expect(await store.findDuplicate(rule(enquiry("r", { id: "x" }), true))).toBeUndefined();
    expect(await store.findDuplicate(rule(enquiry("r", { id: "x" }), false))).toBe(recent.id);
  });

  test("JSON-lines files of an earlier version are imported once, checked, and removed; again, nothing more", async () => {
    const env = await engine.env();
    const copyFixture = () => {
      for (const file of ["enquiries.jsonl", "deliveries.jsonl"])
        fs.copyFileSync(path.join(FIXTURE, file), path.join(env.ENQUIRY_DATA_DIR, file));
    };
    copyFixture();
    const first = await engine.open(env).ready();
    expect(first.imported).toMatchObject({ enquiries: 2, deliveries: 1, reviews: 0, unreadableLines: 1 });
    expect(fs.readdirSync(env.ENQUIRY_DATA_DIR).filter((f) => f.endsWith(".jsonl"))).toEqual([]);
    copyFixture(); // a backup put back: nothing is stored twice
    const store = engine.open(env);
    expect((await store.ready()).imported).toMatchObject({ enquiries: 0, deliveries: 0, unreadableLines: 1 });
    const { enquiries } = await store.list();
    expect(enquiries.map((e) => [e.id, e.delivery, e.attempts])).toEqual([
      ["6f1c2a34-8b9d-4e21-a7c5-0d3e9f412b67", "failed", 1],
      ["0a7d5e1b-3c42-4f8e-9b6a-2e8c7d1f5a90", "stored-only", 0],
    ]);
  });
});
