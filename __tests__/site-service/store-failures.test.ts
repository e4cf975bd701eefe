/**
 * Nothing acknowledged is lost, and nothing is half-stored, when the store fails under load: a full
 * SQLite file (PRAGMA max_page_count, the tests' stand-in for a full disk), and PostgreSQL stopped
 * for 10 s while enquiries keep coming. Every loop is bounded in count and in time.
 */
import { ENGINES, engineUnderTest } from "./support/engines";
import { startReceiver, stoppedAfterEach, validEnquiry, type Answer, type Harness } from "./support/harness";

const stopAfter = stoppedAfterEach();
let site: Harness;

/** What was answered for each message sent, and what the store holds. */
async function expectEveryAcknowledgedStoredOnce(sent: Map<string, Answer>): Promise<void> {
  const stored = (await site.storedLines()) as Array<{ id: string; message: string }>;
  const acknowledged = [...sent].filter(([, a]) => a.status === 201);
  // By the message's first words: a failure shows which enquiry, not all of every one.
  const label = (message: string) => message.slice(0, 20);
  expect(stored.map((l) => label(l.message)).sort()).toEqual(acknowledged.map(([m]) => label(m)).sort());
  expect(new Set(stored.map((l) => l.id))).toEqual(new Set(acknowledged.map(([, a]) => a.body.id)));
}

describe.each(ENGINES.filter((e) => e === "sqlite"))("a full store (%s)", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("fills up: then 500 storage_failed and the form's error, with every enquiry answered 201 stored once", async () => {
    site = stopAfter(await startReceiver(await engine.env(), { store: { maxPageCount: 100 } }));
    const sent = new Map<string, Answer>();
    for (let i = 0; i < 300 && ![...sent.values()].some((a) => a.status === 500); i += 1) {
      const message = `Enquiry ${i}: ${"A long enquiry about a bioequivalence study. ".repeat(40).trim()}`;
      sent.set(message, await site.post({ ...validEnquiry, message }));
    }
    const statuses = [...sent.values()].map((a) => a.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(5);
    expect(statuses.at(-1)).toBe(500);
    expect([...sent.values()].at(-1)!.body).toMatchObject({ error: "storage_failed" });
    expect(site.log.lines.at(-1)).toMatch(
      /^error: enquiry receiver: could not store an enquiry in .*: database or disk is full/,
    );
    await expectEveryAcknowledgedStoredOnce(sent);
  }, 60_000);
});

describe("PostgreSQL stopped for 10 s during load", () => {
  const engine = engineUnderTest("postgres");
  afterEach(() => engine.cleanUp());

  test("errors meanwhile, 201s again after, and every enquiry answered 201 stored exactly once", async () => {
    site = stopAfter(await startReceiver(await engine.env()));
    const sent = new Map<string, Answer>();
    let phase: "before" | "down" | "after" = "before";
    const seen = { before: new Set<number>(), down: new Set<number>(), after: new Set<number>() };
    let n = 0;
    const started = Date.now();
    // Four clients, each sending one enquiry after another, until enough came back after the outage.
    const client = async () => {
      while (n < 2_000 && Date.now() - started < 60_000 && !(phase === "after" && countAfter() >= 40)) {
        const message = `Load enquiry ${(n += 1)}`;
        const sentIn = phase;
        const answer = await site.post({ ...validEnquiry, message });
        sent.set(message, answer);
        // A request that straddles the stop or the restart counts as sent during the outage.
        const during = sentIn === phase ? phase : "down";
        seen[during].add(answer.status);
        if (during === "after" && answer.status === 201) afterOk += 1;
        // Refused at once while the database is down: paced, so the outage does not use up the bound
        // on requests (2,000 went in 10 s once, leaving none for after the restart).
        if (phase === "down") await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    let afterOk = 0;
    const countAfter = () => afterOk;
    const load = Promise.all([client(), client(), client(), client()]);
    await until(() => [...sent.values()].filter((a) => a.status === 201).length >= 20, 20_000);
    phase = "down"; // before the stop begins: requests in flight meanwhile may fail, as they should
    await engine.server()!.halt();
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    await engine.server()!.resume();
    phase = "after";
    await load;

    expect(seen.before).toEqual(new Set([201]));
    expect(seen.down.has(500)).toBe(true);
    expect(afterOk).toBeGreaterThanOrEqual(40);
    expect([...seen.down, ...seen.after].every((s) => s === 201 || s === 500)).toBe(true);
    await expectEveryAcknowledgedStoredOnce(sent);
  }, 120_000);
});

async function until(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
