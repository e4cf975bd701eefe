/**
 * E-mail delivery to a real SMTP server on loopback: the fields arrive intact, Reply-To is the
 * visitor, no field can add a header; when the server is down the enquiry is kept as failed and
 * `retry` (the function, and the CLI as a child process) sends it once the server is back.
 */
import { spawn } from "node:child_process";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { PENDING_GRACE_MS, retryUndelivered } from "../../src/site-service/enquiries/outbox/retry";
import { createMailer } from "../../src/site-service/enquiries/mail/mailer";
import { openStore } from "../../src/site-service/enquiries/store/open-store";
import { freePort } from "../support/serve";
import { anotherEnquiry, projectRoot, startReceiver, tempDir, validEnquiry, type Harness } from "./support/harness";
import { parseMail } from "../support/mail";
import { startSmtp, type SmtpSink } from "../support/smtp";

const TO = "enquiries@cyrus.example";
let site: Harness | undefined;
let smtp: SmtpSink | undefined;

afterEach(async () => {
  await site?.stop();
  await smtp?.stop();
  site = smtp = undefined;
});

const mailEnv = (port: number) => ({ SMTP_URL: `smtp://127.0.0.1:${port}`, ENQUIRY_TO: TO });

async function stateOf(id: unknown) {
  return (await site!.receiver.store.list()).enquiries.find((e) => e.id === id);
}

test("an enquiry in several scripts arrives intact: fields, subject, Reply-To, sender and envelope", async () => {
  smtp = await startSmtp();
  site = await startReceiver(mailEnv(smtp.port));
  const enquiry = {
    name: "முருகன் प्रिया فاطمة 😀",
    phone: "+91 (44) 2345-6789",
    email: "murugan@example.in",
    message: "வணக்கம்,\nनमस्ते — مرحباً 🧪\n\nA line with = and =?UTF-8?Q?x?= in it.\n.\nLast line.",
  };
  const answer = await site.post(enquiry);
  expect(answer.status).toBe(201);
  await site.receiver.drain();

  expect(smtp.messages).toHaveLength(1);
  const [received] = smtp.messages;
  expect(received!.rcptTo).toEqual([TO]);
  expect(received!.mailFrom).toBe(TO);
  const mail = parseMail(received!.raw);
  expect(mail.header("subject")).toBe(`Website enquiry from ${enquiry.name}`);
  expect(mail.header("reply-to")).toBe(`${enquiry.name} <murugan@example.in>`);
  expect(mail.header("from")).toBe(`Cyrus website <${TO}>`);
  expect(mail.header("to")).toBe(TO);
  expect(mail.header("x-enquiry-id")).toBe(answer.body.id);
  expect(mail.header("content-type")).toMatch(/^text\/plain; charset=utf-8/i);
  expect(mail.text).toContain(`Name: ${enquiry.name}\n`);
  expect(mail.text).toContain(`Phone: ${enquiry.phone}\n`);
  expect(mail.text).toContain(`E-mail: ${enquiry.email}\n`);
  expect(mail.text).toContain(`Message:\n${enquiry.message}\n`);

  expect(await site.storedLines()).toEqual([expect.objectContaining({ id: answer.body.id, delivery: "pending" })]);
  expect(await stateOf(answer.body.id)).toMatchObject({ delivery: "delivered", attempts: 1 });
});

test("CR/LF in the name cannot add a header, and in the e-mail it is refused", async () => {
  smtp = await startSmtp();
  site = await startReceiver(mailEnv(smtp.port));
  const name = "Eve\r\nBcc: victim@example.com\r\nX-Injected: yes\nSubject: free money";
  expect((await site.post({ ...validEnquiry, name })).status).toBe(201);
  expect((await site.post({ ...validEnquiry, email: "eve@example.com\r\nBcc: victim@example.com" })).status).toBe(400);
  await site.receiver.drain();

  expect(smtp.messages).toHaveLength(1);
  const [received] = smtp.messages;
  expect(received!.rcptTo).toEqual([TO]);
  const mail = parseMail(received!.raw);
  const names = mail.rawHeaders.map(([n]) => n.toLowerCase());
  expect(names).not.toContain("bcc");
  expect(names).not.toContain("x-injected");
  expect(names.filter((n) => n === "subject")).toHaveLength(1);
  expect(mail.header("subject")).toBe(
    "Website enquiry from Eve Bcc: victim@example.com X-Injected: yes Subject: free money",
  );
  expect(mail.header("reply-to")).toMatch(/<priya@example\.in>$/);
  expect(received!.raw.split("\r\n\r\n")[0]).not.toMatch(/^(Bcc|X-Injected):/im);
});

test("an address in another script is delivered in the body, without a Reply-To servers could refuse", async () => {
  smtp = await startSmtp();
  site = await startReceiver(mailEnv(smtp.port));
  expect((await site.post({ ...validEnquiry, email: "முருகன்@உதாரணம்.இந்தியா" })).status).toBe(201);
  await site.receiver.drain();
  const mail = parseMail(smtp.messages[0]!.raw);
  expect(mail.header("reply-to")).toBeUndefined();
  expect(mail.text).toContain("E-mail: முருகன்@உதாரணம்.இந்தியா\n");
  expect(smtp.messages[0]!.raw.split("\r\n\r\n")[0]).toMatch(/^[\p{ASCII}]*$/u); // headers stay ASCII
});

test("SMTP down: stored as failed; retry delivers it once the server is back", async () => {
  const port = await freePort();
  site = await startReceiver(mailEnv(port));
  const answer = await site.post(validEnquiry);
  expect(answer.status).toBe(201); // the visitor does not wait for, nor hear of, the failure
  await site.receiver.drain();
  expect(await stateOf(answer.body.id)).toMatchObject({
    delivery: "failed",
    attempts: 1,
    lastError: expect.stringMatching(/ECONNREFUSED/),
  });
  expect(site.log.lines.some((l) => l.includes(`enquiry ${answer.body.id}: email (SMTP): attempt 1 failed`))).toBe(
    true,
  );

  smtp = await startSmtp(port);
  const mailer = createMailer(site.receiver.config)!;
  const summary = await retryUndelivered(site.receiver.store, mailer);
  expect(summary.delivered.map((e) => e.id)).toEqual([answer.body.id]);
  expect(summary.failed).toEqual([]);
  expect(smtp.messages).toHaveLength(1);
  expect(parseMail(smtp.messages[0]!.raw).header("x-enquiry-id")).toBe(answer.body.id);
  expect(await stateOf(answer.body.id)).toMatchObject({ delivery: "delivered", attempts: 2, lastError: undefined });

  // Nothing left to do: a second retry sends nothing.
  expect((await retryUndelivered(site.receiver.store, mailer)).delivered).toEqual([]);
  expect(smtp.messages).toHaveLength(1);
});

/** `npx tsx src/site-service/bin/enquiries.ts ...` as an operator would run it, bounded to 60 s. */
function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "src/site-service/bin/enquiries.ts", ...args], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
      reject(new Error(`enquiries ${args.join(" ")} did not finish in 60 s:\n${stdout}\n${stderr}`));
    }, 60_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

test("the CLI retry: exit 1 while SMTP is down, exit 0 and delivered once it is up", async () => {
  const port = await freePort();
  site = await startReceiver(mailEnv(port));
  const answer = await site.post(validEnquiry);
  await site.receiver.drain();
  const env = { ENQUIRY_DATA_DIR: site.dir, ...mailEnv(port) };

  const down = await runCli(["retry"], env);
  expect(down.code).toBe(1);
  expect(down.stderr).toContain(`failed     ${answer.body.id}`);
  expect(down.stdout).toContain("retry: 0 delivered, 1 still failing");

  smtp = await startSmtp(port);
  const up = await runCli(["retry"], env);
  expect(up.code).toBe(0);
  expect(up.stdout).toContain(`delivered  ${answer.body.id}`);
  expect(smtp.messages).toHaveLength(1);
  expect(await stateOf(answer.body.id)).toMatchObject({ delivery: "delivered", attempts: 3 });

  const listed = await runCli(["list", "--json"], env);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout.trim())).toMatchObject({ id: answer.body.id, delivery: "delivered", attempts: 3 });
}, 120_000);

test("retry re-sends a pending enquiry left by a process that died, but not one still under way", async () => {
  smtp = await startSmtp();
  const dir = tempDir();
  const config = loadConfig({ ENQUIRY_DATA_DIR: dir, ...mailEnv(smtp.port) });
  const store = openStore(config);
  const now = Date.now();
  const old = {
    id: "old",
    receivedAt: new Date(now - PENDING_GRACE_MS - 1000).toISOString(),
    ...validEnquiry,
    delivery: "pending" as const,
  };
  const fresh = { ...old, id: "fresh", receivedAt: new Date(now - 1000).toISOString() };
  const storedOnly = { ...old, id: "stored-only", delivery: "stored-only" as const };
  for (const e of [old, fresh, storedOnly]) await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false });

  const summary = await retryUndelivered(store, createMailer(config)!, () => now);
  expect(summary.delivered.map((e) => e.id)).toEqual(["old"]);
  expect(summary.skipped.map((e) => e.id)).toEqual(["fresh"]);
  expect(smtp.messages).toHaveLength(1);
  const states = Object.fromEntries((await store.list()).enquiries.map((e) => [e.id, e.delivery]));
  expect(states).toEqual({ old: "delivered", fresh: "pending", "stored-only": "stored-only" });
  await store.close();
});

test("ENQUIRY_AWAIT_DELIVERY=1 answers after the attempt: 502 when it fails (still stored), 201 when it succeeds", async () => {
  const port = await freePort();
  site = await startReceiver({ ...mailEnv(port), ENQUIRY_AWAIT_DELIVERY: "1" });
  const failed = await site.post(validEnquiry);
  expect(failed.status).toBe(502);
  expect(failed.body).toMatchObject({ error: "delivery_failed", id: expect.any(String) });
  expect(await stateOf(failed.body.id)).toMatchObject({ delivery: "failed" });

  smtp = await startSmtp(port);
  // The visitor told of the failure sends the same enquiry again: a new attempt, not a duplicate.
  const ok = await site.post(validEnquiry);
  expect(ok.status).toBe(201);
  expect(ok.body.id).not.toBe(failed.body.id);
  expect(smtp.messages).toHaveLength(1); // already there when the answer came
});

test("without SMTP settings the receiver says once that it stores only, and stores only", async () => {
  site = await startReceiver({ SMTP_URL: undefined, ENQUIRY_TO: undefined });
  await site.post(anotherEnquiry(1));
  await site.post(anotherEnquiry(2));
  const notices = site.log.lines.filter((l) => l.includes("stored only"));
  expect(notices).toEqual(["warn: enquiries will be stored only: SMTP_URL and ENQUIRY_TO are not set"]);
  expect(((await site.storedLines()) as Array<{ delivery: string }>).map((l) => l.delivery)).toEqual([
    "stored-only",
    "stored-only",
  ]);
});

test("with only one of the two settings it names the missing one", async () => {
  site = await startReceiver({ SMTP_URL: "smtp://127.0.0.1:1" });
  expect(site.log.lines).toContain("warn: enquiries will be stored only: ENQUIRY_TO is not set");
});

test("the CLI lists enquiries as a table, filters the undelivered, and refuses retry without SMTP", async () => {
  const port = await freePort();
  site = await startReceiver(mailEnv(port));
  await site.post({ ...validEnquiry, name: "Failed Visitor", message: "line one\nline two" });
  await site.receiver.drain();
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  const env = { ENQUIRY_DATA_DIR: site.dir };

  expect(await runEnquiriesCli(["list"], env, io)).toBe(0);
  expect(out[0]).toMatch(/^received \(UTC\)\s+id\s+delivery\s+tries\s+name\s+e-mail\s+phone\s+message$/);
  expect(out.find((l) => l.includes("Failed Visitor"))).toMatch(/failed\s+1\s+Failed Visitor.*line one line two/);
  expect(out).toContainEqual(expect.stringMatching(/^ {4}last error: .*ECONNREFUSED/));
  expect(out.at(-1)).toMatch(/^1 enquiry in .*enquiries\.sqlite$/);

  out.length = 0;
  expect(await runEnquiriesCli(["list", "--undelivered"], env, io)).toBe(0);
  expect(out.at(-1)).toMatch(/^1 undelivered enquiry in /);

  expect(await runEnquiriesCli(["retry"], env, io)).toBe(1);
  expect(err).toContain("cannot re-send: SMTP_URL and ENQUIRY_TO are not set");
  expect(await runEnquiriesCli(["frobnicate"], env, io)).toBe(2);
});
