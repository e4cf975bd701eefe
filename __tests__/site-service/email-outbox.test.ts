/**
 * The e-mail through the outbox, on each engine, to a real SMTP server on loopback: its row is
 * written with the enquiry; a failed attempt is retried on the schedule (an injected clock); two
 * `retry` at once beside the running receiver send each e-mail once; a row whose sender died is sent
 * after its lease. And the Gatsby Function on PostgreSQL: stored before its 201, what it could not
 * e-mail left in the outbox for its next invocation, or for `retry` on another machine.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { GatsbyFunctionRequest } from "gatsby";
import { createEmailFunction } from "../../src/api/email";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createReceiver } from "../../src/site-service/enquiries/core/receiver";
import { LEASE_MS } from "../../src/site-service/enquiries/outbox/sender";
import { freePort } from "../support/serve";
import { ENGINES, engineUnderTest } from "./support/engines";
import {
  anotherEnquiry,
  memoryLog,
  projectRoot,
  startReceiver,
  stoppedAfterEach,
  withHelpers,
} from "./support/harness";
import { parseMail } from "../support/mail";
import { startSmtp, type SmtpSink } from "../support/smtp";

const SECOND = 1000;
const stopAfter = stoppedAfterEach();
const mailEnv = (port: number) => ({ SMTP_URL: `smtp://127.0.0.1:${port}`, ENQUIRY_TO: "desk@cyrus.example" });
const quietIo = { out: () => undefined, err: () => undefined };

/** The enquiry ids of the messages the sink received, one per message. */
const idsOf = (smtp: SmtpSink) => smtp.messages.map((m) => parseMail(m.raw).header("x-enquiry-id"));

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("written with the enquiry, retried on the schedule after a failure, delivered once", async () => {
    const env = await engine.env();
    const port = await freePort(); // no mail server yet
    const clock = { t: Date.parse("2026-11-26T09:00:00Z") };
    const site = stopAfter(
      await startReceiver({ ...env, ...mailEnv(port) }, { now: () => clock.t, outbox: { random: () => 0.5 } }),
    );
    const answer = await site.post(anotherEnquiry("schedule"));
    expect(answer.status).toBe(201);
    await site.receiver.drain();
    expect(await site.receiver.store.outboxStates()).toEqual([
      expect.objectContaining({ enquiryId: answer.body.id, destination: "email", state: "due", attempts: 1 }),
    ]);
    const smtp = stopAfter(await startSmtp(port));
    clock.t += 29 * SECOND; // the second attempt is due 30 s after the first
    await site.receiver.sendDue();
    expect(smtp.messages).toHaveLength(0);
    clock.t += 2 * SECOND;
    await site.receiver.sendDue();
    await site.receiver.sendDue();
    expect(idsOf(smtp)).toEqual([answer.body.id]);
    const [record] = (await site.receiver.store.list()).enquiries;
    expect(record).toMatchObject({
      delivery: "delivered",
      attempts: 2,
      outbox: [{ destination: "email", state: "done" }],
    });
  });

  test("two retry at once, beside the receiver's sender: each e-mail sent once", async () => {
    const env = await engine.env();
    const port = await freePort();
    const site = stopAfter(await startReceiver({ ...env, ...mailEnv(port) }));
    const ids: unknown[] = [];
    for (let i = 0; i < 12; i += 1) ids.push((await site.post(anotherEnquiry(`twice ${i}`))).body.id);
    await site.receiver.drain(); // every first attempt failed: nothing listens on the port
    const smtp = stopAfter(await startSmtp(port));
    const cliEnv = { ...env, ENQUIRY_DATA_DIR: site.dir, ...mailEnv(port) };
    const codes = await Promise.all([
      runEnquiriesCli(["retry"], cliEnv, quietIo),
      runEnquiriesCli(["retry"], cliEnv, quietIo),
      site.receiver.sendDue(),
    ]);
    expect(codes.slice(0, 2)).toEqual([0, 0]);
    expect(idsOf(smtp).sort()).toEqual([...ids].sort());
    // And again: nothing is left to send.
    expect(await runEnquiriesCli(["retry"], cliEnv, quietIo)).toBe(0);
    expect(smtp.messages).toHaveLength(ids.length);
    const states = (await site.receiver.store.list()).enquiries.map((e) => e.delivery);
    expect(states).toEqual(ids.map(() => "delivered"));
  });

  test("a row claimed by a sender that died is sent after its lease, by another", async () => {
    const env = await engine.env();
    const smtp = stopAfter(await startSmtp());
    const clock = { t: Date.parse("2026-11-26T09:00:00Z") };
    const config = loadConfig({ ...env, ...mailEnv(smtp.port) }, projectRoot);
    // Stored with its e-mail row by a receiver that sends nothing (its sender "died" holding the claim).
    const store = engine.open(env);
    const e = {
      id: "leased",
      receivedAt: new Date(clock.t).toISOString(),
      ...anotherEnquiry("lease"),
      delivery: "pending" as const,
    };
    await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
      { destination: "email", messageId: "msg_leased" },
    ]);
    const at = new Date(clock.t).toISOString();
    expect(await store.claimDue("email", at, new Date(clock.t + LEASE_MS).toISOString(), 10)).toHaveLength(1);
    const other = createReceiver(config, { log: memoryLog(), now: () => clock.t });
    try {
      await other.sendDue();
      expect(smtp.messages).toHaveLength(0); // still held
      clock.t += LEASE_MS + SECOND;
      await other.sendDue();
      expect(idsOf(smtp)).toEqual(["leased"]);
    } finally {
      await other.close();
    }
  });
});

describe("the Gatsby Function on PostgreSQL", () => {
  const engine = engineUnderTest("postgres");
  afterEach(() => engine.cleanUp());

  test("stored before the 201; what it could not e-mail waits for its next invocation, or retry elsewhere", async () => {
    const env = await engine.env();
    const port = await freePort();
    const clock = { t: Date.parse("2026-11-26T09:00:00Z") };
    const config = loadConfig({ ...env, ...mailEnv(port), ENQUIRY_RATE_LIMIT: "100" }, projectRoot);
    // As sharedReceiver builds it for a function instance: one connection, kept across invocations.
    const receiver = createReceiver(config, {
      log: memoryLog(),
      now: () => clock.t,
      store: { connections: 1 },
      outbox: { random: () => 0.5 }, // the second attempt 30 s after the first, no jitter
    });
    const fn = createEmailFunction(() => receiver, memoryLog());
    const server = http.createServer((req, res) => void fn(req as GatsbyFunctionRequest, withHelpers(res)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/email`;
    const invoke = async (n: string) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(anotherEnquiry(n)),
      });
      return { status: res.status, id: ((await res.json()) as { id: string }).id };
    };
    const elsewhere = engine.open(env); // another machine with the same DATABASE_URL
    let smtp: SmtpSink | undefined;
    try {
      const first = await invoke("function 1");
      expect(first.status).toBe(201);
      // In PostgreSQL when the answer came, with its e-mail row (whatever happens to the instance now).
      expect((await elsewhere.storedLines()).map((l) => (l as { id: string }).id)).toEqual([first.id]);
      expect(await elsewhere.outboxStates()).toEqual([
        expect.objectContaining({ enquiryId: first.id, destination: "email" }),
      ]);
      await receiver.drain(); // its attempt failed: no mail server
      expect((await elsewhere.outboxStates())[0]).toMatchObject({ state: "due", attempts: 1 });

      smtp = await startSmtp(port);
      clock.t += 31 * SECOND; // the next invocation, once the first is due again, sends both
      const second = await invoke("function 2");
      await receiver.drain();
      expect(idsOf(smtp).sort()).toEqual([first.id, second.id].sort());

      await smtp.stop();
      smtp = undefined;
      const third = await invoke("function 3");
      await receiver.drain();
      const restarted = stopAfter(await startSmtp(port));
      // `retry` run anywhere with the same DATABASE_URL and mail settings.
      const out: string[] = [];
      const cliEnv = { ...env, ENQUIRY_DATA_DIR: env.ENQUIRY_DATA_DIR, ...mailEnv(port) };
      expect(await runEnquiriesCli(["retry"], cliEnv, { out: (l) => out.push(l), err: () => undefined })).toBe(0);
      expect(out.at(-1)).toBe("retry: 1 delivered, 0 still failing");
      expect(idsOf(restarted)).toEqual([third.id]);
    } finally {
      await smtp?.stop();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await receiver.close();
    }
  });
});
