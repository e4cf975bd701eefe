/**
 * The receiver over HTTP, the Gatsby Function and `npm run enquiries` on each engine: stored before
 * the 201, a resend answered as the first, the listing, re-sending to a real SMTP server and
 * clearing a suspect; a database that cannot be reached answers today's storage failure (500
 * storage_failed, the form's error with the values kept) and stores nothing.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { GatsbyFunctionRequest } from "gatsby";
import { createEmailFunction } from "../../src/api/email";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { freePort } from "../support/serve";
import { ENGINES, engineUnderTest } from "./support/engines";
import {
  anotherEnquiry,
  memoryLog,
  startReceiver,
  stoppedAfterEach,
  validEnquiry,
  withHelpers,
} from "./support/harness";
import { startSmtp } from "../support/smtp";

const stopAfter = stoppedAfterEach();

function cli(env: Record<string, string | undefined>) {
  const out: string[] = [];
  const err: string[] = [];
  const run = (...args: string[]) => runEnquiriesCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { out, err, run };
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  test("stored before the 201, a resend is the first, and the CLI lists, re-sends and clears them", async () => {
    const env = await engine.env();
    const site = stopAfter(await startReceiver(env));
    const first = await site.post(validEnquiry);
    expect(first.status).toBe(201);
    expect(await site.post(validEnquiry)).toMatchObject({ status: 200, body: { id: first.body.id, duplicate: true } });
    const suspect = await site.post({ ...anotherEnquiry("s"), cyrus_confirm_field: "filled" });
    expect(suspect.status).toBe(201);
    expect((await site.storedLines()).map((l) => (l as { id: string }).id)).toEqual([first.body.id, suspect.body.id]);

    const smtp = stopAfter(await startSmtp());
    const mail = { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ENQUIRY_TO: "desk@cyrus.example" };
    const { out, err, run } = cli({ ...env, ENQUIRY_DATA_DIR: site.dir, ...mail });
    expect(await run("list", "--suspect")).toBe(0);
    expect(out.at(-1)).toMatch(/^1 suspect enquiry in /);
    expect(await run("not-spam", String(suspect.body.id))).toBe(0);
    // Stored while mail was not set up: stored-only, which retry leaves alone.
    expect(await run("retry")).toBe(0);
    expect(smtp.messages).toHaveLength(0);
    expect(await run("list", "--json")).toBe(0);
    const listed = out.filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(listed.map((e) => [e.id, e.delivery, e.clearedAt !== undefined])).toEqual([
      [first.body.id, "stored-only", false],
      [suspect.body.id, "stored-only", true],
    ]);
    expect(err).toEqual([]);
  });

  test("e-mailed after the commit; a failed delivery is re-sent by retry on the same store", async () => {
    const env = await engine.env();
    const port = await freePort();
    const mail = { SMTP_URL: `smtp://127.0.0.1:${port}`, ENQUIRY_TO: "desk@cyrus.example" };
    const site = stopAfter(await startReceiver({ ...env, ...mail }));
    const answer = await site.post(validEnquiry);
    expect(answer.status).toBe(201);
    await site.receiver.drain(); // the mail server is not there yet: the attempt fails
    const smtp = stopAfter(await startSmtp(port));
    const { out, run } = cli({ ...env, ENQUIRY_DATA_DIR: site.dir, ...mail });
    expect(await run("retry")).toBe(0);
    expect(out.at(-1)).toBe("retry: 1 delivered, 0 still failing");
    expect(smtp.messages).toHaveLength(1);
    const [record] = (await site.receiver.store.list()).enquiries;
    expect(record).toMatchObject({ id: answer.body.id, delivery: "delivered", attempts: 2 });
  });

  test("the Gatsby Function stores through the same store", async () => {
    const env = await engine.env();
    const site = stopAfter(await startReceiver(env));
    const fn = createEmailFunction(() => site.receiver, memoryLog());
    const server = http.createServer((req, res) => void fn(req as GatsbyFunctionRequest, withHelpers(res)));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(validEnquiry),
    });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect((await site.storedLines()).map((l) => (l as { id: string }).id)).toEqual([id]);
  });
});

test("PostgreSQL out of reach: 500 storage_failed within the connection timeout, and the form's error page", async () => {
  const port = await freePort(); // nothing listens there
  const site = stopAfter(await startReceiver({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/enquiries` }));
  const answer = await site.post(validEnquiry);
  expect(answer).toMatchObject({ status: 500, body: { error: "storage_failed" } });
  const form = await fetch(site.url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(validEnquiry).toString(),
    redirect: "manual",
  });
  expect(form.status).toBe(303);
  expect(form.headers.get("location")).toBe("/contact/error");
  expect(site.log.lines.filter((l) => l.startsWith("error: enquiry receiver: could not store"))).toHaveLength(2);
  expect(site.log.lines.join("\n")).not.toContain(validEnquiry.email);
}, 30_000);
