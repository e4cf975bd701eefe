/**
 * The outbox's webhook, on each engine, against an endpoint that verifies every request with the
 * standardwebhooks package: retried after a 500 and a timeout with the same webhook-id, Retry-After
 * honoured, 410 stopping the destination until its URL changes, failed for good (loudly) after about
 * three days, and each row sent once when two instances' senders run at once. The schedule runs on
 * an injected clock, with the jitter fixed.
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { receiverOutbox } from "../../src/site-service/enquiries/outbox/receiver-outbox";
import { MAX_ATTEMPTS } from "../../src/site-service/enquiries/outbox/schedule";
import { ENGINES, engineUnderTest } from "./support/engines";
import {
  anotherEnquiry,
  memoryLog,
  projectRoot,
  startReceiver,
  stoppedAfterEach,
  validEnquiry,
} from "./support/harness";
import { newSecret, startWebhookSink, type Reply } from "../support/webhook-sink";

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const stopAfter = stoppedAfterEach();

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  /** A receiver whose webhook goes to a sink answering `replies` in turn (then 200), on a clock the test moves. */
  async function setUp(replies: Reply[]) {
    const secret = newSecret();
    const sink = stopAfter(await startWebhookSink(secret, (n) => replies[n] ?? { status: 200 }));
    const clock = { t: Date.parse("2026-11-26T09:00:00Z") };
    const env = { ...(await engine.env()), ENQUIRY_WEBHOOK_URL: sink.url, ENQUIRY_WEBHOOK_SECRET: secret };
    const site = stopAfter(
      await startReceiver(env, { now: () => clock.t, outbox: { random: () => 0.5, webhookTimeoutMs: 500 } }),
    );
    const pass = async (advanceMs = 0) => {
      clock.t += advanceMs;
      await site.receiver.sendDue();
    };
    return { secret, sink, clock, env, site, pass };
  }

  test("retried after a 500 and a timeout, every attempt signed and verified, the same webhook-id", async () => {
    const { sink, site, pass } = await setUp([{ status: 500 }, "hang", { status: 204 }]);
    const answer = await site.post(validEnquiry);
    expect(answer.status).toBe(201);
    await site.receiver.drain(); // the first attempt, right after the commit: 500
    await pass(29 * SECOND); // not yet due (30 s)
    expect(sink.received).toHaveLength(1);
    await pass(2 * SECOND); // the second: no answer within the timeout
    await pass(2 * 60 * SECOND + SECOND); // the third: 204
    expect(sink.received.map((r) => r.valid)).toEqual([true, true, true]);
    expect(new Set(sink.received.map((r) => r.id))).toEqual(new Set([`msg_${answer.body.id}`]));
    expect(sink.received[0]!.payload).toEqual({
      type: "enquiry.received",
      timestamp: expect.any(String),
      data: {
        id: answer.body.id,
        receivedAt: expect.any(String),
        ...validEnquiry,
        screening: { verdict: "clean", signals: [] },
      },
    });
    const [record] = (await site.receiver.store.list()).enquiries;
    expect(record!.outbox).toEqual([{ destination: "webhook", state: "done", attempts: 3 }]);
    await pass(24 * HOUR);
    expect(sink.received).toHaveLength(3); // done is done
  });

  test("Retry-After is honoured when it asks for longer than the schedule", async () => {
    const { sink, site, pass } = await setUp([{ status: 503, headers: { "retry-after": "3600" } }]);
    await site.post(validEnquiry);
    await site.receiver.drain();
    await pass(31 * SECOND);
    await pass(30 * 60 * SECOND);
    expect(sink.received).toHaveLength(1);
    await pass(30 * 60 * SECOND);
    expect(sink.received).toHaveLength(2);
  });

  test("410 stops the destination: nothing more is sent there, and a new URL gets what waited", async () => {
    const { secret, sink, site, pass, clock, env } = await setUp([{ status: 410 }]);
    await site.post(anotherEnquiry("a"));
    await site.receiver.drain();
    await site.post(anotherEnquiry("b"));
    await site.receiver.drain();
    await pass(HOUR);
    expect(sink.received).toHaveLength(1);
    expect(site.log.lines.filter((l) => l.includes("answered 410 Gone"))).toHaveLength(1);

    const moved = stopAfter(await startWebhookSink(secret, () => ({ status: 200 })));
    const config = loadConfig({ ...env, ENQUIRY_DATA_DIR: site.dir, ENQUIRY_WEBHOOK_URL: moved.url }, projectRoot);
    const summary = await receiverOutbox(config, site.receiver.store, undefined, memoryLog(), {
      now: () => clock.t,
    }).sendDue();
    expect(summary).toMatchObject({ done: 2 });
    expect(moved.received.map((r) => [r.valid, r.payload.data.message])).toEqual([
      [true, anotherEnquiry("a").message],
      [true, anotherEnquiry("b").message],
    ]);
  });

  test(`after ${MAX_ATTEMPTS} attempts over about three days it has failed, loudly, in the log and the CLI`, async () => {
    const { sink, site, pass, clock, env } = await setUp(Array(20).fill({ status: 500 }));
    await site.post(validEnquiry);
    await site.receiver.drain();
    const first = clock.t;
    for (let i = 0; i < 20 && sink.received.length < MAX_ATTEMPTS; i += 1) await pass(13 * HOUR);
    expect(sink.received).toHaveLength(MAX_ATTEMPTS);
    expect(sink.received.every((r) => r.valid)).toBe(true);
    expect((clock.t - first) / (24 * HOUR)).toBeGreaterThan(2.5);
    expect(site.log.lines.filter((l) => l.startsWith("error:") && l.includes("FAILED for good"))).toHaveLength(1);
    await pass(13 * HOUR);
    expect(sink.received).toHaveLength(MAX_ATTEMPTS);
    const out: string[] = [];
    await runEnquiriesCli(
      ["list"],
      { ...env, ENQUIRY_DATA_DIR: site.dir },
      { out: (l) => out.push(l), err: () => undefined },
    );
    expect(out).toContain(`    webhook: FAILED for good after ${MAX_ATTEMPTS} attempt(s); last error: HTTP 500`);
  });

  test("two instances' senders at once: each enquiry sent once", async () => {
    const { sink, site, env, clock } = await setUp([]);
    const config = loadConfig({ ...env, ENQUIRY_DATA_DIR: site.dir }, projectRoot);
    // Stored while nobody sends: the instances' senders find 30 rows due.
    const stores = [
      engine.open({ ...env, ENQUIRY_DATA_DIR: site.dir }),
      engine.open({ ...env, ENQUIRY_DATA_DIR: site.dir }),
    ];
    const quiet = receiverOutbox({ ...config, webhook: undefined }, stores[0]!, undefined, memoryLog());
    expect(quiet.entriesFor("x")).toEqual([]);
    const outbox = receiverOutbox(config, stores[0]!, undefined, memoryLog());
    for (let i = 0; i < 30; i += 1) {
      const e = {
        id: `e-${i}`,
        receivedAt: new Date(clock.t).toISOString(),
        ...anotherEnquiry(i),
        delivery: "stored-only" as const,
      };
      await stores[0]!.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, outbox.entriesFor(e.id));
    }
    const senders = stores.map((s) => receiverOutbox(config, s, undefined, memoryLog(), { now: () => clock.t }));
    await Promise.all(senders.map((s) => s.sendDue()));
    expect(sink.received).toHaveLength(30);
    expect(new Set(sink.received.map((r) => r.id)).size).toBe(30);
  });
});
