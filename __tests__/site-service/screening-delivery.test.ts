/**
 * Suspect enquiries over real HTTP, delivered to a real SMTP server on loopback: flagged, never
 * refused. Sent as JSON (the form's script) or urlencoded (the form without JavaScript), a suspect
 * is answered exactly as a clean one (201 / 303 /contact/sent), stored once with its screening
 * (never the honeypot's value), e-mailed with the subject prefixed, an X-Enquiry-Screening header
 * and the signals in the body (to ENQUIRY_SUSPECT_TO when set), recognised when sent again and
 * counted by the rate limit like any other. (`enquiries list --suspect` and `not-spam`:
 * screening-cli.test.ts.)
 */
import fs from "node:fs";
import path from "node:path";
import { retryUndelivered } from "../../src/site-service/enquiries/outbox/retry";
import { createMailer } from "../../src/site-service/enquiries/mail/mailer";
import { freePort } from "../support/serve";
import { anotherEnquiry, startReceiver, validEnquiry, type Harness } from "./support/harness";
import { parseMail } from "../support/mail";
import { startSmtp, type SmtpSink } from "../support/smtp";

const TO = "enquiries@cyrus.example";
const HONEYPOT = "cyrus_confirm_field";
const TRAP = "http://trap-value.example";
const LINKS = "\nhttps://a.example/1\nhttps://a.example/2\nhttps://a.example/3";
/** The honeypot filled by a script, and a link dump. */
const suspect = { ...validEnquiry, message: `${validEnquiry.message}${LINKS}`, [HONEYPOT]: TRAP };

let site: Harness | undefined;
let smtp: SmtpSink | undefined;

afterEach(async () => {
  await site?.stop();
  await smtp?.stop();
  site = smtp = undefined;
});

const mailEnv = (port: number, extra: Record<string, string> = {}) => ({
  SMTP_URL: `smtp://127.0.0.1:${port}`,
  ENQUIRY_TO: TO,
  ...extra,
});

async function withMail(extra: Record<string, string> = {}) {
  smtp = await startSmtp();
  site = await startReceiver(mailEnv(smtp.port, extra));
  return { site, smtp };
}

/** The site's form posted by the browser itself: urlencoded, same-origin. */
async function postForm(fields: Record<string, string>) {
  const res = await fetch(site!.url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: new URL(site!.url).origin,
      "sec-fetch-site": "same-origin",
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  return { status: res.status, location: res.headers.get("location"), text: await res.text() };
}

function dataFiles(): string {
  return fs
    .readdirSync(site!.dir)
    .map((file) => fs.readFileSync(path.join(site!.dir, file), "utf8"))
    .join("\n");
}

test("JSON: a suspect is answered as a clean one, stored once without the honeypot, and e-mailed flagged", async () => {
  await withMail();
  const clean = await site!.post({ ...anotherEnquiry("clean"), [HONEYPOT]: "" });
  const flagged = await site!.post(suspect);
  expect(flagged.status).toBe(201);
  expect(flagged.body).toEqual({ ok: true, id: expect.any(String) });
  expect([...flagged.headers.keys()].sort()).toEqual([...clean.headers.keys()].sort());
  await site!.receiver.drain();

  const lines = (await site!.storedLines()) as Array<Record<string, unknown>>;
  expect(lines.filter((l) => l.id === flagged.body.id)).toHaveLength(1);
  expect(lines.find((l) => l.id === flagged.body.id)).toEqual({
    v: 3,
    id: flagged.body.id,
    receivedAt: expect.any(String),
    ...validEnquiry,
    message: suspect.message,
    screening: { verdict: "suspect", signals: ["honeypot", "urls-in-message"] },
    delivery: "pending",
  });
  expect(lines.find((l) => l.id === clean.body.id)).toMatchObject({ screening: { verdict: "clean", signals: [] } });
  expect(dataFiles()).not.toContain(TRAP);
  expect(dataFiles()).not.toContain(HONEYPOT);

  expect(smtp!.messages).toHaveLength(2);
  const mails = smtp!.messages.map((m) => ({ ...m, mail: parseMail(m.raw) }));
  const cleanMail = mails.find((m) => m.mail.header("x-enquiry-id") === clean.body.id)!;
  const { mail, rcptTo } = mails.find((m) => m.mail.header("x-enquiry-id") === flagged.body.id)!;
  expect(cleanMail.mail.header("subject")).toBe(`Website enquiry from ${validEnquiry.name}`);
  expect(cleanMail.mail.header("x-enquiry-screening")).toBe("clean");
  expect(cleanMail.mail.text).not.toContain("spam");

  expect(rcptTo).toEqual([TO]);
  expect(mail.header("subject")).toBe(`[Possible spam] Website enquiry from ${validEnquiry.name}`);
  expect(mail.header("x-enquiry-screening")).toBe("suspect; signals=honeypot,urls-in-message");
  expect(mail.header("reply-to")).toBe(`${validEnquiry.name} <${validEnquiry.email}>`);
  expect(mail.text).toMatch(/^Possible spam: the website's screening flagged this enquiry\./);
  expect(mail.text).toContain(
    '\n- honeypot: the hidden field that visitors never see ("Leave this empty") was filled in\n',
  );
  expect(mail.text).toContain("\n- urls-in-message: three or more links in the message\n");
  expect(mail.text).toContain(`Name: ${validEnquiry.name}\n`);
  expect(mail.text).toContain(`Message:\n${suspect.message}\n`);
  expect(mail.text).toContain(`npm run enquiries -- not-spam ${flagged.body.id}`);
  expect(mail.text).not.toContain(TRAP);
  expect((await site!.receiver.store.list()).enquiries.map((e) => e.delivery)).toEqual(["delivered", "delivered"]);
});

test("without JavaScript: a suspect form post lands on /contact/sent, stored once and e-mailed flagged", async () => {
  await withMail();
  const res = await postForm({ ...suspect, name: "Loans https://cutt.ly/x" });
  expect(res.status).toBe(303);
  expect(res.location).toBe("/contact/sent");
  const cleanRes = await postForm({ ...anotherEnquiry("clean form"), [HONEYPOT]: "" });
  expect(cleanRes).toEqual(res); // a clean post gets the very same answer
  await site!.receiver.drain();

  const lines = (await site!.storedLines()) as Array<{
    name: string;
    screening: { verdict: string; signals: string[] };
  }>;
  expect(lines.map((l) => [l.name, l.screening])).toEqual([
    [
      "Loans https://cutt.ly/x",
      { verdict: "suspect", signals: ["honeypot", "urls-in-message", "url-in-name", "url-shortener"] },
    ],
    [validEnquiry.name, { verdict: "clean", signals: [] }],
  ]);
  expect(dataFiles()).not.toContain(TRAP);
  const subjects = smtp!.messages.map((m) => parseMail(m.raw).header("subject"));
  expect(subjects).toEqual(
    expect.arrayContaining([
      "[Possible spam] Website enquiry from Loans https://cutt.ly/x",
      `Website enquiry from ${validEnquiry.name}`,
    ]),
  );
  const flagged = smtp!.messages.map((m) => parseMail(m.raw)).find((m) => m.header("subject")!.startsWith("[Possible"));
  expect(flagged!.header("x-enquiry-screening")).toBe(
    "suspect; signals=honeypot,urls-in-message,url-in-name,url-shortener",
  );
  expect(flagged!.text).toContain("\n- url-shortener: a link through a URL shortener, which hides where it leads\n");
});

test("ENQUIRY_SUSPECT_TO takes the suspects; clean enquiries still go to ENQUIRY_TO", async () => {
  await withMail({ ENQUIRY_SUSPECT_TO: "screening@cyrus.example" });
  await site!.post(suspect);
  await site!.post({ ...anotherEnquiry(2), [HONEYPOT]: "" });
  await site!.receiver.drain();
  const byRecipient = smtp!.messages.map((m) => [m.rcptTo, parseMail(m.raw).header("x-enquiry-screening")]);
  expect(byRecipient).toEqual(
    expect.arrayContaining([
      [["screening@cyrus.example"], "suspect; signals=honeypot,urls-in-message"],
      [[TO], "clean"],
    ]),
  );
  expect(smtp!.messages.every((m) => m.mailFrom === TO)).toBe(true);
  expect(site!.log.lines).toContain(
    `info: enquiry receiver: storing enquiries in ${site!.dir}/enquiries.sqlite and e-mailing them to ${TO} (possible spam to screening@cyrus.example)`,
  );
});

test("a suspect sent again is a duplicate (stored and e-mailed once), whatever the honeypot holds", async () => {
  await withMail();
  const first = await site!.post(suspect);
  const again = await site!.post({ ...suspect, [HONEYPOT]: "something else" });
  const withoutTrap = await site!.post({ ...suspect, [HONEYPOT]: "" });
  await site!.receiver.drain();
  expect(first.status).toBe(201);
  expect([again.status, again.body]).toEqual([200, { ok: true, id: first.body.id, duplicate: true }]);
  expect([withoutTrap.status, withoutTrap.body.id]).toEqual([200, first.body.id]);
  expect(await site!.storedLines()).toHaveLength(1);
  expect(smtp!.messages).toHaveLength(1);
});

test("suspects count towards the rate limit like any enquiry", async () => {
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "2" });
  expect((await site.post(suspect)).status).toBe(201);
  expect((await site.post({ ...suspect, message: `${suspect.message}\nagain` })).status).toBe(201);
  const third = await site.post(anotherEnquiry("clean, third"));
  expect(third.status).toBe(429);
  expect(await site.storedLines()).toHaveLength(2);
});

test.each<[string, unknown]>([
  ["a number", 42],
  ["an object", { filled: "by a script" }],
  ["a list", ["a", "b"]],
  ["true", true],
  ["a long text", "x".repeat(10_000)],
  ["control characters", "a\u0000b"],
])("a honeypot holding %s is never a refusal: 201, flagged, nothing of it stored", async (_what, value) => {
  site = await startReceiver();
  const answer = await site.post({ ...validEnquiry, [HONEYPOT]: value });
  expect(answer.status).toBe(201);
  expect(await site.storedLines()).toEqual([
    expect.objectContaining({ screening: { verdict: "suspect", signals: ["honeypot"] } }),
  ]);
  expect(Object.keys((await site.storedLines())[0] as object)).not.toContain(HONEYPOT);
});

test("a form post with a long honeypot (a password manager's note) still lands on /contact/sent", async () => {
  site = await startReceiver();
  const res = await postForm({ ...validEnquiry, [HONEYPOT]: "correct horse battery staple ".repeat(100) });
  expect(res.location).toBe("/contact/sent");
  expect(await site.storedLines()).toEqual([
    expect.objectContaining({ screening: expect.objectContaining({ verdict: "suspect" }) }),
  ]);
});

test("a suspect whose e-mail failed is re-sent flagged by retry", async () => {
  const port = await freePort();
  site = await startReceiver(mailEnv(port));
  const answer = await site.post(suspect);
  await site.receiver.drain();
  smtp = await startSmtp(port);
  const summary = await retryUndelivered(site.receiver.store, createMailer(site.receiver.config)!);
  expect(summary.delivered.map((e) => e.id)).toEqual([answer.body.id]);
  const mail = parseMail(smtp.messages[0]!.raw);
  expect(mail.header("subject")).toMatch(/^\[Possible spam\] /);
  expect(mail.header("x-enquiry-screening")).toBe("suspect; signals=honeypot,urls-in-message");
});
