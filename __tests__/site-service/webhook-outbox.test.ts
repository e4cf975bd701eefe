/**
 * The outbox's webhook, on each engine, against an endpoint that verifies every request with the
 * standardwebhooks package: retried after a 500 and a timeout with the same webhook-id, Retry-After
 * honoured, 410 stopping the destination until its URL changes, failed for good (loudly) after about
 * three days, and each row sent once when two instances' senders run at once. The schedule runs on
 * an injected clock, with the jitter fixed.
 */
import { Webhook } from "standardwebhooks";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig, type EnquiryConfig } from "../../src/site-service/enquiries/core/config";
import { receiverOutbox } from "../../src/site-service/enquiries/outbox/receiver-outbox";
import { MAX_ATTEMPTS } from "../../src/site-service/enquiries/outbox/schedule";
import type { EnquiryStore } from "../../src/site-service/enquiries/store/store";
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

  /** n enquiries stored with their webhook rows while nobody sends: the next pass finds n rows due. */
  async function storeQuietly(store: EnquiryStore, config: EnquiryConfig, n: number, at: number): Promise<void> {
    const outbox = receiverOutbox(config, store, undefined, memoryLog());
    for (let i = 0; i < n; i += 1) {
      const e = {
        id: `e-${i}`,
        receivedAt: new Date(at).toISOString(),
        ...anotherEnquiry(i),
        delivery: "stored-only" as const,
      };
      await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, outbox.entriesFor(e.id));
    }
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
    // The sender's line, once (the alert it opens says so in its own words: alerts.test.ts).
    expect(site.log.lines.filter((l) => /webhook \(\S+\) answered 410 Gone/.test(l))).toHaveLength(1);

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
    await storeQuietly(stores[0]!, config, 30, clock.t);
    const senders = stores.map((s) => receiverOutbox(config, s, undefined, memoryLog(), { now: () => clock.t }));
    await Promise.all(senders.map((s) => s.sendDue()));
    expect(sink.received).toHaveLength(30);
    expect(new Set(sink.received.map((r) => r.id)).size).toBe(30);
  });

  test("an enquiry stored while the sender looks for failing channels is still sent in that run", async () => {
    // The check for failing channels runs after a pass with a failure; the store's first read of
    // the backlog is held until the second enquiry has been stored and its send asked for.
    const { sink, site, env, clock } = await setUp([{ status: 500 }]);
    const config = loadConfig({ ...env, ENQUIRY_DATA_DIR: site.dir }, projectRoot);
    const store = engine.open({ ...env, ENQUIRY_DATA_DIR: site.dir });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let looking!: () => void;
    const looked = new Promise<void>((resolve) => (looking = resolve));
    const gated: EnquiryStore = Object.create(store, {
      backlog: {
        value: async () => {
          looking();
          await held;
          return store.backlog();
        },
      },
    });
    const outbox = receiverOutbox(config, gated, undefined, memoryLog(), { now: () => clock.t });
    await storeQuietly(store, config, 1, clock.t);
    const first = outbox.sendDue();
    await looked;
    expect(sink.received).toHaveLength(1);
    await store.add(
      { id: "e-late", receivedAt: new Date(clock.t).toISOString(), ...anotherEnquiry("late"), delivery: "stored-only" },
      { key: "e-late", since: new Date(clock.t).toISOString(), ignoreFailed: false },
      outbox.entriesFor("e-late"),
    );
    const second = outbox.sendDue();
    release();
    await Promise.all([first, second]);
    expect(sink.received.map((r) => r.payload.data.message)).toEqual([
      anotherEnquiry(0).message,
      anotherEnquiry("late").message,
    ]);
  });

  test("410 with 25 rows due: one request at most per row, none after it, and the next URL gets the full schedule", async () => {
    const secret = newSecret();
    // The endpoint fails the first pass (an attempt on each row), then is gone.
    const old = stopAfter(await startWebhookSink(secret, (n) => ({ status: n < 25 ? 500 : 410 })));
    const clock = { t: Date.parse("2026-11-26T09:00:00Z") };
    const env = { ...(await engine.env()), ENQUIRY_WEBHOOK_URL: old.url, ENQUIRY_WEBHOOK_SECRET: secret };
    const config = loadConfig(env, projectRoot);
    const store = engine.open(env);
    await storeQuietly(store, config, 25, clock.t);
    const log = memoryLog();
    const pass = async (settings: EnquiryConfig, advanceMs: number) => {
      clock.t += advanceMs;
      await receiverOutbox(settings, store, undefined, log, { now: () => clock.t, random: () => 0.5 }).sendDue();
    };
    await pass(config, 0);
    expect(old.received).toHaveLength(25);

    await pass(config, HOUR);
    const gonePass = old.received.slice(25);
    expect(gonePass.length).toBeGreaterThanOrEqual(1);
    expect(new Set(gonePass.map((r) => r.id)).size).toBe(gonePass.length); // no row twice
    expect(gonePass.length).toBeLessThanOrEqual(20); // the batch in flight when the 410 came, no more
    expect(log.lines.filter((l) => /^error: webhook \(\S+\) answered 410 Gone/.test(l))).toHaveLength(1);
    expect(log.lines.filter((l) => l.startsWith("error: ALERT: enquiry deliveries to the webhook"))).toHaveLength(1);
    // Recorded in the database: another instance (another store) sends nothing there either.
    const seen = old.received.length;
    await receiverOutbox(config, engine.open(env), undefined, memoryLog(), { now: () => clock.t }).sendDue();
    await pass(config, HOUR);
    expect(old.received).toHaveLength(seen);

    // The URL changes: every row gets the whole schedule there, whatever was spent on the gone one.
    const moved = stopAfter(await startWebhookSink(secret, () => ({ status: 500 })));
    const movedConfig = loadConfig({ ...env, ENQUIRY_WEBHOOK_URL: moved.url }, projectRoot);
    for (let i = 0; i < 20; i += 1) await pass(movedConfig, i === 0 ? 0 : 13 * HOUR);
    const perRow = new Map<string, number>();
    for (const r of moved.received) perRow.set(r.id, (perRow.get(r.id) ?? 0) + 1);
    expect(perRow.size).toBe(25);
    expect(new Set(perRow.values())).toEqual(new Set([MAX_ATTEMPTS]));
    expect(old.received).toHaveLength(seen);
  });

  test("the payload's timestamp is when the enquiry arrived; webhook-timestamp is when it was sent", async () => {
    const { sink, site } = await setUp([]);
    const answer = await site.post(validEnquiry);
    const before = Math.floor(Date.now() / 1000);
    await site.receiver.drain();
    const after = Math.ceil(Date.now() / 1000);
    const [request] = sink.received;
    expect(request!.valid).toBe(true);
    expect(request!.payload.data.receivedAt).toBe("2026-11-26T09:00:00.000Z");
    expect(request!.payload.timestamp).toBe(request!.payload.data.receivedAt);
    expect(answer.body.id).toBe(request!.payload.data.id);
    expect(Number(request!.timestamp)).toBeGreaterThanOrEqual(before - 1);
    expect(Number(request!.timestamp)).toBeLessThanOrEqual(after);
  });

  test("during a rotation both secrets sign: a receiver verifying with either accepts", async () => {
    const previous = newSecret();
    const { sink, site, env } = await setUp([]);
    const rotating = { ...env, ENQUIRY_WEBHOOK_SECRET_PREVIOUS: previous };
    const config = loadConfig({ ...rotating, ENQUIRY_DATA_DIR: site.dir }, projectRoot);
    await storeQuietly(site.receiver.store, config, 1, Date.now());
    await receiverOutbox(config, site.receiver.store, undefined, memoryLog()).sendDue();
    const [request] = sink.received;
    expect(request!.headers["webhook-signature"]!.split(" ")).toEqual([
      expect.stringMatching(/^v1,/),
      expect.stringMatching(/^v1,/),
    ]);
    expect(request!.valid).toBe(true); // the new secret (the sink's)
    expect(() => new Webhook(previous).verify(request!.body, request!.headers)).not.toThrow();
    expect(() => new Webhook(newSecret()).verify(request!.body, request!.headers)).toThrow();
    expect(() => loadConfig({ ...rotating, ENQUIRY_WEBHOOK_SECRET_PREVIOUS: "whsec_short" }, projectRoot)).toThrow(
      "ENQUIRY_WEBHOOK_SECRET_PREVIOUS must be whsec_",
    );
    expect(() => loadConfig({ ENQUIRY_WEBHOOK_SECRET_PREVIOUS: previous }, projectRoot)).toThrow(
      "ENQUIRY_WEBHOOK_SECRET_PREVIOUS",
    );
  });
});
