/**
 * The inbox's tables on each engine: a store of today's schema (migrations 001–004) with enquiries
 * in it migrates with each of them new at version 1, and an enquiry stored later gets its work row
 * too; a change at a stale version is refused with the current state and changes nothing; the
 * history says who changed what; invitations are used once and expire; sessions end when idle,
 * when old and when their person is revoked.
 */
import { readMigrations } from "../../src/site-service/enquiries/store/migrations";
import { settingsEngine } from "../../src/site-service/enquiries/store/open-store";
import { enquiryRow, INSERT_ENQUIRY } from "../../src/site-service/enquiries/store/enquiry-row";
import type { EnquiryStore, StoredEnquiry } from "../../src/site-service/enquiries/store/store";
import { ENGINES, engineUnderTest } from "./support/engines";
import { anotherEnquiry } from "./support/harness";

const HOUR = 3600_000;
const T0 = Date.parse("2026-11-20T09:00:00Z");
const at = (ms: number) => new Date(T0 + ms).toISOString();

const enquiry = (n: number): StoredEnquiry => ({
  id: `enq-${n}`,
  receivedAt: at(n * 1000),
  ...anotherEnquiry(`inbox ${n}`),
  email: `person${n}@example.in`,
  delivery: "pending",
});

async function add(store: EnquiryStore, e: StoredEnquiry): Promise<void> {
  await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false });
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("today's schema with enquiries in it migrates: each is new at version 1, and so is one stored after", async () => {
    const env = await engine.env();
    // The database as the code before the inbox left it: migrations 001–004, three enquiries.
    const raw = settingsEngine(
      { dataDir: env.ENQUIRY_DATA_DIR, databaseUrl: env.DATABASE_URL, databaseConnections: 1 },
      { log: { warn: () => undefined } },
    );
    await raw.open();
    await raw.exec(
      "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, compatible_from integer)",
    );
    for (const m of readMigrations(name).filter((m) => m.version <= 4)) {
      await raw.exec(m.sql);
      await raw.run("INSERT INTO schema_migrations (version, name, compatible_from) VALUES ($1, $2, $3)", [
        m.version,
        m.name,
        m.compatibleFrom,
      ]);
    }
    for (const n of [1, 2, 3]) await raw.run(INSERT_ENQUIRY, enquiryRow(enquiry(n)));
    await raw.close();

    const store = engine.open(env);
    expect((await store.ready()).migrationsApplied).toEqual(
      readMigrations(name)
        .filter((m) => m.version >= 5)
        .map((m) => m.name),
    );
    for (const n of [1, 2, 3]) {
      expect(await store.inbox.work(`enq-${n}`)).toEqual({ enquiryId: `enq-${n}`, status: "new", version: 1 });
    }
    expect((await store.list()).enquiries).toHaveLength(3);
    await add(store, enquiry(4));
    expect(await store.inbox.work("enq-4")).toEqual({ enquiryId: "enq-4", status: "new", version: 1 });
    expect(await store.inbox.work("no-such")).toBeUndefined();
  });

  test("a change at a stale version is refused with the current state; history and answered time are kept", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    await add(store, enquiry(1));
    const inbox = store.inbox;
    await inbox.invite("Ana@Cyrus.example", "Ana Lima", "hash-ana", at(0), at(24 * HOUR));
    await inbox.invite("ben@cyrus.example", "Ben Okafor", "hash-ben", at(0), at(24 * HOUR));
    const [ana, ben] = (await inbox.people(at(0))).map((p) => p.id);

    // Ana takes it; Ben, who still sees version 1, tries to close it.
    const took = await inbox.changeWork("enq-1", 1, { status: "in progress", ownerId: ana! }, ana, at(HOUR));
    expect(took).toEqual({
      outcome: "changed",
      state: { enquiryId: "enq-1", status: "in progress", ownerId: ana, version: 2 },
    });
    const stale = await inbox.changeWork("enq-1", 1, { status: "closed" }, ben, at(HOUR + 1));
    expect(stale).toEqual({ outcome: "conflict", state: took.outcome === "changed" ? took.state : undefined });
    expect((await inbox.work("enq-1"))?.status).toBe("in progress");

    // Answered twice: the first time stands for received → answered.
    await inbox.changeWork("enq-1", 2, { status: "answered" }, ana, at(2 * HOUR));
    await inbox.changeWork("enq-1", 3, { status: "in progress", ownerId: ben! }, ben, at(3 * HOUR));
    const last = await inbox.changeWork("enq-1", 4, { status: "answered", ownerId: null }, ben, at(4 * HOUR));
    expect(last).toMatchObject({ outcome: "changed", state: { version: 5, answeredAt: at(2 * HOUR) } });
    expect(last.outcome === "changed" ? last.state.ownerId : "not changed").toBeUndefined();
    expect(await inbox.addNote("enq-1", ana, "Called them; quote by Friday.", at(5 * HOUR))).toBe(true);
    expect(await inbox.addNote("no-such", ana, "lost", at(5 * HOUR))).toBe(false);
    expect(await inbox.notes("enq-1")).toEqual([
      { at: at(5 * HOUR), personId: ana, text: "Called them; quote by Friday." },
    ]);
    expect(await inbox.history("enq-1")).toEqual([
      { at: at(HOUR), personId: ana, what: "status: new → in progress" },
      { at: at(HOUR), personId: ana, what: "owner: Ana Lima" },
      { at: at(2 * HOUR), personId: ana, what: "status: in progress → answered" },
      { at: at(3 * HOUR), personId: ben, what: "status: answered → in progress" },
      { at: at(3 * HOUR), personId: ben, what: "owner: Ben Okafor" },
      { at: at(4 * HOUR), personId: ben, what: "status: in progress → answered" },
      { at: at(4 * HOUR), personId: ben, what: "owner: none" },
      { at: at(5 * HOUR), personId: ana, what: "note added" },
    ]);
    expect(await inbox.changeWork("no-such", 1, { status: "closed" }, ana, at(6 * HOUR))).toEqual({
      outcome: "not-found",
    });
  });

  test("two instances changing one enquiry at the same version at once: one wins, the other is told", async () => {
    const env = await engine.env();
    const [one, two] = [engine.open(env), engine.open(env)];
    await add(one, enquiry(1));
    await two.ready();
    const results = await Promise.all([
      one.inbox.changeWork("enq-1", 1, { status: "answered" }, undefined, at(HOUR)),
      two.inbox.changeWork("enq-1", 1, { status: "spam" }, undefined, at(HOUR)),
    ]);
    expect(results.map((r) => r.outcome).sort()).toEqual(["changed", "conflict"]);
    const winner = results.find((r) => r.outcome === "changed")!;
    expect(await one.inbox.work("enq-1")).toEqual(winner.outcome === "changed" && winner.state);
    expect(await one.inbox.history("enq-1")).toHaveLength(1);
  });

  test("re-sending one enquiry's failed delivery makes that row due now, and no other enquiry's", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    for (const n of [1, 2]) {
      const e = enquiry(n);
      await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
        { destination: "webhook", messageId: `msg_${e.id}` },
      ]);
      const [claim] = await store.claimDue("webhook", at(HOUR), at(HOUR + 60_000), 1, { enquiryId: e.id });
      await store.recordAttempt(claim!, { at: at(HOUR), outcome: "failed", detail: "HTTP 500", nextAt: at(5 * HOUR) });
    }
    expect(await store.dueNow("webhook", at(2 * HOUR), "enq-1")).toBe(1);
    const due = await store.claimDue("webhook", at(2 * HOUR), at(2 * HOUR + 60_000), 10);
    expect(due.map((c) => c.enquiryId)).toEqual(["enq-1"]);
    const found = await store.inbox.enquiry("enq-2");
    expect(found?.outbox).toEqual([
      { destination: "webhook", state: "due", attempts: 1, nextAt: at(5 * HOUR), lastError: "HTTP 500" },
    ]);
  });

  test("an invitation is used once, within its time, by a person not revoked", async () => {
    const env = await engine.env();
    const { inbox } = engine.open(env);
    const ana = await inbox.invite(" Ana@Cyrus.example ", " Ana Lima ", "hash-1", at(0), at(24 * HOUR));
    expect(ana).toMatchObject({ email: "ana@cyrus.example", name: "Ana Lima" });
    expect(await inbox.invitation("hash-1", at(23 * HOUR))).toEqual(ana);
    expect(await inbox.invitation("hash-1", at(24 * HOUR))).toBeUndefined();
    expect(await inbox.invitation("other", at(0))).toBeUndefined();
    const passkey = { credentialId: "cred-1", personId: ana.id, publicKey: "pk", counter: 0, transports: ["internal"] };
    expect(await inbox.redeemInvitation("hash-1", passkey, at(24 * HOUR))).toBe(false); // expired
    expect(await inbox.redeemInvitation("hash-1", passkey, at(HOUR))).toBe(true);
    expect(await inbox.redeemInvitation("hash-1", { ...passkey, credentialId: "cred-2" }, at(HOUR))).toBe(false);
    expect(await inbox.passkey("cred-1")).toEqual(passkey);
    expect(await inbox.passkey("cred-2")).toBeUndefined();

    // A new invitation ends the unused one before it; revoking ends both the invitation and the passkey.
    await inbox.invite("ana@cyrus.example", "Ana Lima", "hash-2", at(HOUR), at(25 * HOUR));
    await inbox.invite("ana@cyrus.example", "Ana Lima", "hash-3", at(HOUR), at(25 * HOUR));
    expect(await inbox.invitation("hash-2", at(HOUR))).toBeUndefined();
    expect(await inbox.revoke("ANA@cyrus.example", at(2 * HOUR))).toEqual({ sessions: 0, alreadyRevoked: false });
    expect(await inbox.invitation("hash-3", at(2 * HOUR))).toBeUndefined();
    expect(await inbox.passkey("cred-1")).toBeUndefined();
    expect(await inbox.revoke("nobody@cyrus.example", at(2 * HOUR))).toBeUndefined();
    // Invited again (a lost device, say): access again, under the name given now, but the old passkey
    // stays gone; only one made from the new link signs in.
    await inbox.invite("ana@cyrus.example", "Ana L.", "hash-4", at(3 * HOUR), at(27 * HOUR));
    expect(await inbox.passkey("cred-1")).toBeUndefined();
    expect(await inbox.people(at(3 * HOUR))).toEqual([
      { ...ana, name: "Ana L.", passkeys: 0, sessions: 0, invitedUntil: at(27 * HOUR) },
    ]);
    expect(await inbox.redeemInvitation("hash-4", { ...passkey, credentialId: "cred-4" }, at(3 * HOUR))).toBe(true);
    expect(await inbox.passkey("cred-4")).toEqual({ ...passkey, credentialId: "cred-4" });
  });

  test("a session ends when idle 12 h, at 7 days in all, and at once when its person is revoked", async () => {
    const env = await engine.env();
    const { inbox } = engine.open(env);
    const limits = { idleMs: 12 * HOUR, maxMs: 7 * 24 * HOUR };
    const ana = await inbox.invite("ana@cyrus.example", "Ana Lima", "inv", at(0), at(24 * HOUR));
    await inbox.startSession("idle", ana.id, at(0));
    expect(await inbox.session("idle", at(12 * HOUR), limits)).toEqual(ana);
    expect(await inbox.session("idle", at(24 * HOUR + 1), limits)).toBeUndefined();
    expect(await inbox.session("idle", at(24 * HOUR + 2), limits)).toBeUndefined(); // gone, not only refused

    await inbox.startSession("busy", ana.id, at(0));
    for (let h = 11; h < 7 * 24; h += 11) expect(await inbox.session("busy", at(h * HOUR), limits)).toEqual(ana);
    expect(await inbox.session("busy", at(7 * 24 * HOUR + 1), limits)).toBeUndefined();

    await inbox.startSession("a", ana.id, at(0));
    await inbox.startSession("b", ana.id, at(0));
    expect((await inbox.people(at(0)))[0]).toMatchObject({ sessions: 2 });
    expect(await inbox.revoke("ana@cyrus.example", at(HOUR))).toEqual({ sessions: 2, alreadyRevoked: false });
    expect(await inbox.session("a", at(HOUR), limits)).toBeUndefined();
    expect(await inbox.session("b", at(HOUR), limits)).toBeUndefined();
    expect(await inbox.revoke("ana@cyrus.example", at(HOUR))).toEqual({ sessions: 0, alreadyRevoked: true });
    expect(await inbox.people(at(HOUR))).toEqual([{ ...ana, revokedAt: at(HOUR), passkeys: 0, sessions: 0 }]);

    await inbox.startSession("c", ana.id, at(2 * HOUR));
    await inbox.endSession("c");
    expect(await inbox.session("c", at(2 * HOUR), limits)).toBeUndefined();
  });

  test("the audit keeps who viewed or exported what, oldest first, the last n on asking", async () => {
    const env = await engine.env();
    const { inbox } = engine.open(env);
    const ana = await inbox.invite("ana@cyrus.example", "Ana Lima", "inv", at(0), at(24 * HOUR));
    await inbox.recordAudit(ana.id, "view", "enquiry enq-1", at(1));
    await inbox.recordAudit(ana.id, "export", "3 enquiries (status=new)", at(2));
    await inbox.recordAudit(undefined, "view", "enquiry enq-2", at(3));
    expect(await inbox.audit()).toEqual([
      { at: at(1), who: "ana@cyrus.example", action: "view", subject: "enquiry enq-1" },
      { at: at(2), who: "ana@cyrus.example", action: "export", subject: "3 enquiries (status=new)" },
      { at: at(3), action: "view", subject: "enquiry enq-2" },
    ]);
    expect((await inbox.audit(2)).map((a) => a.at)).toEqual([at(2), at(3)]);
  });
});
