/**
 * ENQUIRY_RETENTION_DAYS on each engine, on an injected clock: enquiries received before the cutoff
 * go with their delivery, review, outbox and attempt rows, and the inbox's work, notes and history; younger ones stay;
 * unset keeps all; the
 * log says how many without personal data; the service purges when it starts (then daily).
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createReceiver } from "../../src/site-service/enquiries/core/receiver";
import { RETENTION_INTERVAL_MS } from "../../src/site-service/enquiries/core/retention";
import { createEnquiryService, jsonLog } from "../../src/site-service/service/server";
import type { EnquiryStore } from "../../src/site-service/enquiries/store/store";
import { until } from "../deploy/support/until";
import { ENGINES, engineUnderTest } from "./support/engines";
import { anotherEnquiry, memoryLog, projectRoot } from "./support/harness";

const DAY = 24 * 3600 * 1000;
const NOW = Date.parse("2026-11-26T09:00:00Z");

/** Enquiries received `ages` days before NOW, each with an outbox row, an attempt and a delivery record. */
async function fill(store: EnquiryStore, ages: number[]): Promise<void> {
  for (const [i, age] of ages.entries()) {
    const e = {
      id: `age-${age}`,
      receivedAt: new Date(NOW - age * DAY).toISOString(),
      ...anotherEnquiry(`retention ${i}`),
      email: `person${i}@example.in`,
      delivery: "pending" as const,
    };
    await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
      { destination: "email", messageId: `msg_${e.id}` },
    ]);
    const [claim] = await store.claimDue("email", e.receivedAt, e.receivedAt, 1, { enquiryId: e.id });
    await store.recordAttempt(claim!, { at: e.receivedAt, outcome: "done", detail: "250 ok" });
    await store.recordReview({ id: e.id, at: e.receivedAt, review: "not-spam" });
    // The inbox's work on it: a note, and a change in its history.
    await store.inbox.addNote(e.id, undefined, `called back ${i}`, e.receivedAt);
    await store.inbox.changeWork(e.id, 1, { status: "in progress" }, undefined, e.receivedAt);
  }
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("older enquiries go with all their rows; younger ones stay; logged without personal data", async () => {
    const env = await engine.env();
    await fill(engine.open(env), [400, 31, 30.5, 29, 0]);
    const log = memoryLog();
    const config = loadConfig({ ...env, ENQUIRY_RETENTION_DAYS: "30" }, projectRoot);
    const receiver = createReceiver(config, { log, now: () => NOW, mailer: null });
    try {
      expect(await receiver.purgeExpired()).toBe(3);
      const { enquiries } = await receiver.store.list();
      expect(enquiries.map((e) => e.id)).toEqual(["age-29", "age-0"]);
      expect(enquiries.every((e) => e.delivery === "delivered" && e.clearedAt !== undefined)).toBe(true);
      expect((await receiver.store.outboxStates()).map((s) => s.enquiryId)).toEqual(["age-29", "age-0"]);
      for (const id of ["age-400", "age-31", "age-30.5"]) {
        expect(await receiver.store.inbox.notes(id)).toEqual([]);
        expect(await receiver.store.inbox.history(id)).toEqual([]);
        expect(await receiver.store.inbox.work(id)).toBeUndefined();
      }
      expect((await receiver.store.inbox.notes("age-29")).map((n) => n.text)).toEqual(["called back 3"]);
      expect(await receiver.store.inbox.history("age-29")).toHaveLength(2);
      const said = log.lines.filter((l) => l.includes("retention"));
      expect(said).toEqual([
        "info: enquiry store: retention (ENQUIRY_RETENTION_DAYS=30): removed 3 enquiries received before 2026-10-27T09:00:00.000Z",
      ]);
      expect(log.lines.join("\n")).not.toMatch(/person\d@|Priya/);
      expect(await receiver.purgeExpired()).toBe(0); // a second purge finds nothing more
    } finally {
      await receiver.close();
    }
  });

  test("unset: every enquiry is kept; the CLI's purge says so, and purges once it is set", async () => {
    const env = await engine.env();
    await fill(engine.open(env), [4000, 1]);
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    expect(await runEnquiriesCli(["purge"], env, io)).toBe(1);
    expect(out).toEqual(["ENQUIRY_RETENTION_DAYS is not set: every enquiry is kept"]);
    const receiver = createReceiver(loadConfig(env, projectRoot), { log: memoryLog(), now: () => NOW, mailer: null });
    try {
      expect(await receiver.purgeExpired()).toBeUndefined();
      expect((await receiver.store.list()).enquiries).toHaveLength(2);
      expect(await runEnquiriesCli(["purge"], { ...env, ENQUIRY_RETENTION_DAYS: "3650" }, io)).toBe(0);
      expect(out.at(-1)).toMatch(/removed 1 enquiry received before/);
      expect((await receiver.store.list()).enquiries).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  test("the service purges when it starts, then once a day", async () => {
    const env = await engine.env();
    await fill(engine.open(env), [90, 10]);
    const lines: string[] = [];
    const service = createEnquiryService({
      env: { ...env, ENQUIRY_PORT: "0", ENQUIRY_RETENTION_DAYS: "60" },
      log: jsonLog((line) => void lines.push(line)),
      receiverOptions: { now: () => NOW, mailer: null },
      projectRoot,
    });
    try {
      await service.listen();
      await until(() => lines.some((l) => l.includes("removed 1 enquiry")), 10_000, "the purge at start");
      expect((await service.receiver.store.list()).enquiries.map((e) => e.id)).toEqual(["age-10"]);
      expect(RETENTION_INTERVAL_MS).toBe(DAY);
    } finally {
      await service.shutdown("test");
    }
  });
});
