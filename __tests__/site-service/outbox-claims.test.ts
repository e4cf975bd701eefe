/**
 * The outbox's claims, on each engine, with the sender driven directly (destinations that record
 * what they were given, an injected clock): a send that outlives its lease cannot undo the result
 * of the sender that took the row over, and an erasure between the claim and the send leaves that
 * enquiry unsent while the pass goes on with the other rows and the other channel.
 */
import { EMAIL } from "../../src/site-service/enquiries/outbox/email";
import {
  createSender,
  LEASE_MS,
  type Destination,
  type SendOutcome,
} from "../../src/site-service/enquiries/outbox/sender";
import type { EnquiryStore, StoredEnquiry } from "../../src/site-service/enquiries/store/store";
import { ENGINES, engineUnderTest } from "./support/engines";
import { anotherEnquiry, memoryLog } from "./support/harness";

const START = Date.parse("2026-11-26T09:00:00Z");

/** A destination that answers `answer` (or waits for it) and records the enquiries it was given. */
function recording(name: string, answer: (enquiry: StoredEnquiry) => Promise<SendOutcome> | SendOutcome) {
  const sent: string[] = [];
  const destination: Destination = {
    name,
    settingHash: "h",
    describe: "test",
    async send(enquiry) {
      sent.push(enquiry.id);
      return answer(enquiry);
    },
  };
  return { destination, sent };
}

async function storeEnquiries(store: EnquiryStore, n: number, destinations: string[]): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    const e = {
      id: `e-${i}`,
      receivedAt: new Date(START).toISOString(),
      ...anotherEnquiry(i),
      email: `person${i}@example.in`,
      delivery: "pending" as const,
    };
    await store.add(
      e,
      { key: e.id, since: e.receivedAt, ignoreFailed: false },
      destinations.map((d) => ({ destination: d, messageId: `msg_${e.id}` })),
    );
  }
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("a send slower than its lease cannot undo the result of the instance that took the row over", async () => {
    const env = await engine.env();
    const [first, second] = [engine.open(env), engine.open(env)];
    await storeEnquiries(first, 1, ["webhook"]);
    const clock = { t: START };
    let started!: () => void;
    const sending = new Promise<void>((resolve) => (started = resolve));
    let finish!: (outcome: SendOutcome) => void;
    const slow = recording("webhook", () => {
      started();
      return new Promise<SendOutcome>((resolve) => (finish = resolve));
    });
    const log = memoryLog();
    const slowPass = createSender({
      store: first,
      destinations: [slow.destination],
      log,
      now: () => clock.t,
    }).sendDue();
    await sending;

    // Past the lease, another instance claims the row and delivers it.
    clock.t += LEASE_MS + 1000;
    const quick = recording("webhook", () => ({ ok: true, detail: "HTTP 204" }));
    const other = createSender({
      store: second,
      destinations: [quick.destination],
      log: memoryLog(),
      now: () => clock.t,
    });
    expect(await other.sendDue()).toMatchObject({ done: 1 });

    // Then the first one's request fails, late.
    finish({ ok: false, error: "HTTP 500" });
    await slowPass;
    expect(await first.outboxStates()).toEqual([
      { enquiryId: "e-0", destination: "webhook", state: "done", attempts: 1 },
    ]);
    expect(log.lines.filter((l) => l.startsWith("warn:") && l.includes("not recorded"))).toHaveLength(1);
    clock.t += 24 * 3600_000;
    await other.sendDue();
    expect(quick.sent).toEqual(["e-0"]); // done stays done
  });

  test("an erasure between the claim and the send: not sent, and the pass goes on with the rest", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    await storeEnquiries(store, 25, [EMAIL, "webhook"]);
    // The erasure commits right after the e-mail's first claim, before its sends begin.
    let erased = 0;
    const erasing = Object.create(store) as EnquiryStore;
    erasing.claimDue = async (...args: Parameters<EnquiryStore["claimDue"]>) => {
      const claimed = await store.claimDue(...args);
      if (args[0] === EMAIL && erased === 0) erased = (await store.erase("person3@example.in")).enquiries;
      return claimed;
    };
    const email = recording(EMAIL, () => ({ ok: true, detail: "250 ok" }));
    const webhook = recording("webhook", () => ({ ok: true, detail: "HTTP 204" }));
    const log = memoryLog();
    const summary = await createSender({
      store: erasing,
      destinations: [email.destination, webhook.destination],
      log,
      now: () => START,
    }).sendDue();
    expect(erased).toBe(1);
    const others = Array.from({ length: 25 }, (_, i) => `e-${i}`).filter((id) => id !== "e-3");
    expect(email.sent.sort()).toEqual(others.sort());
    expect(webhook.sent.sort()).toEqual(others.sort());
    expect(summary).toMatchObject({ done: 48 });
    const states = await store.outboxStates();
    expect(states).toHaveLength(48);
    expect(states.every((s) => s.state === "done" && s.enquiryId !== "e-3")).toBe(true);
    expect(log.lines.filter((l) => l.startsWith("error:"))).toEqual([]);
  });
});
