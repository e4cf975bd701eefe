/**
 * An enquiry is either answered 2xx or not stored, and a resend is never a second copy:
 * - the same enquiry again within a day is answered as accepted under its first id, stored once
 *   (also when both arrive at the same moment, and after a restart);
 * - past its deadline (X-Request-Start from a trusted proxy, ENQUIRY_DEADLINE_SECONDS) or once the
 *   client has gone, an enquiry is not stored, so the visitor's resend is the only copy.
 */
import { createReceiver } from "../../src/site-service/enquiries/core/receiver";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import {
  anotherEnquiry,
  memoryLog,
  projectRoot,
  startReceiver,
  tempDir,
  validEnquiry,
  type Harness,
} from "./support/harness";

let site: Harness | undefined;

afterEach(async () => {
  await site?.stop();
  site = undefined;
});

test("the same enquiry twice: 201, then 200 with the same id and duplicate: true; stored once", async () => {
  site = await startReceiver();
  const first = await site.post(validEnquiry);
  expect(first.status).toBe(201);
  const again = await site.post({
    ...validEnquiry,
    name: ` ${validEnquiry.name} `,
    email: validEnquiry.email.toUpperCase(),
  });
  expect(again.status).toBe(200);
  expect(again.body).toEqual({ ok: true, id: first.body.id, duplicate: true });
  expect(await site.storedLines()).toHaveLength(1);
  // Another message is another enquiry.
  expect((await site.post(anotherEnquiry("other"))).status).toBe(201);
  expect(await site.storedLines()).toHaveLength(2);
});

test("a resend does not use up the visitor's allowance", async () => {
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1" });
  expect((await site.post(validEnquiry)).status).toBe(201);
  expect((await site.post(validEnquiry)).status).toBe(200);
  expect((await site.post(anotherEnquiry(2))).status).toBe(429);
});

test("ten identical enquiries at once (a double submit): one stored, every answer 2xx with its id", async () => {
  site = await startReceiver();
  const answers = await Promise.all(Array.from({ length: 10 }, () => site!.post(validEnquiry)));
  const stored = (await site.storedLines()) as Array<{ id: string }>;
  expect(stored).toHaveLength(1);
  expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
  expect(new Set(answers.map((a) => a.body.id))).toEqual(new Set([stored[0]!.id]));
});

test("after a restart the enquiries of the last day are still recognised; older ones are not", async () => {
  const dir = tempDir();
  const day = 24 * 60 * 60 * 1000;
  let now = Date.parse("2026-11-25T10:00:00Z");
  const receiver = () =>
    createReceiver(loadConfig({ ENQUIRY_DATA_DIR: dir, ENQUIRY_RATE_LIMIT: "100" }, projectRoot), {
      mailer: null,
      now: () => now,
      log: memoryLog(),
    });
  const request = (fields: object) => ({
    method: "POST",
    headers: { "content-type": "application/json" },
    rawBody: Buffer.from(JSON.stringify(fields)),
    clientAddress: "127.0.0.1",
  });
  const first = await receiver().handleEnquiry(request(validEnquiry));
  expect(first.status).toBe(201);

  now += day - 60_000;
  const restarted = await receiver().handleEnquiry(request(validEnquiry));
  expect(restarted.status).toBe(200);
  expect(JSON.parse(restarted.body).id).toBe(JSON.parse(first.body).id);

  now += 2 * 60_000; // more than a day after the first
  expect((await receiver().handleEnquiry(request(validEnquiry))).status).toBe(201);
});

describe("deadline", () => {
  const started = (secondsAgo: number) => ({
    "x-request-start": `t=${((Date.now() - secondsAgo * 1000) / 1000).toFixed(3)}`,
  });

  test("past ENQUIRY_DEADLINE_SECONDS after the proxy received it: 503 deadline_exceeded, nothing stored", async () => {
    site = await startReceiver({ ENQUIRY_TRUST_PROXY: "1", ENQUIRY_DEADLINE_SECONDS: "20", ENQUIRY_RATE_LIMIT: "1" });
    const late = await site.post(validEnquiry, started(25));
    expect(late.status).toBe(503);
    expect(late.body).toMatchObject({ error: "deadline_exceeded" });
    expect(late.headers.get("retry-after")).toBe("5");
    expect(await site.storedLines()).toEqual([]);
    expect(site.log.lines.join("\n")).toMatch(
      /not stored: it reached the receiver 2\d(\.\d)? s after the proxy received it \(deadline 20 s\)/,
    );
    // In time: stored, and the late attempt used up nothing of the allowance of one.
    const inTime = await site.post(validEnquiry, started(3));
    expect(inTime.status).toBe(201);
    expect(await site.storedLines()).toHaveLength(1);
  });

  test("X-Request-Start counts only from a trusted proxy", async () => {
    site = await startReceiver({ ENQUIRY_DEADLINE_SECONDS: "20" });
    expect((await site.post(validEnquiry, started(600))).status).toBe(201);
  });

  test("a client that has gone before the store: not stored (and a later resend is the only copy)", async () => {
    const dir = tempDir();
    const log = memoryLog();
    const receiver = createReceiver(loadConfig({ ENQUIRY_DATA_DIR: dir }, projectRoot), { mailer: null, log });
    const request = {
      method: "POST",
      headers: { "content-type": "application/json" },
      rawBody: Buffer.from(JSON.stringify(validEnquiry)),
      clientAddress: "127.0.0.1",
    };
    expect((await receiver.handleEnquiry({ ...request, clientGone: () => true })).status).toBe(503);
    expect((await receiver.store.list()).enquiries).toEqual([]);
    expect(log.lines).toContain(
      "warn: enquiry receiver: not stored: the client closed the connection before it was stored",
    );
    expect((await receiver.handleEnquiry({ ...request, clientGone: () => false })).status).toBe(201);
    expect((await receiver.store.list()).enquiries).toHaveLength(1);
  });
});
