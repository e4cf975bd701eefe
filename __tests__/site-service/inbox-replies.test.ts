/**
 * Answering a visitor from the inbox, on each engine, through the enquiry service to a real SMTP
 * server on loopback: the reply is stored with its outbox row and sent by the outbox's sender; its
 * e-mail threads under the notification the company received (In-Reply-To and References are that
 * message's Message-ID), carries the person's words and the visitor's message quoted, exactly, and
 * a DKIM signature that verifies against the public key; the same key again is the same reply and
 * no second mail; the first reply sets the answered time once; a mail server that is down leaves
 * it due with its error, and it goes later (the schedule, `retry --channel reply`); erasure takes
 * the replies with the enquiry. Refusals: empty, too long, an address that is missing or holds a
 * line break, replies not set up; a name with a line break writes no header. Saved answers (with
 * their audit and limits) and the signature. Two instances on one PostgreSQL: one mail.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import type { EnquiryStore } from "../../src/site-service/enquiries/store/store";
import { createEnquiryService, jsonLog, type EnquiryService } from "../../src/site-service/service/server";
import { verifyDkim } from "../support/dkim-verify";
import { parseMail } from "../support/mail";
import { freePort } from "../support/serve";
import { startSmtp, type SmtpSink } from "../support/smtp";
import { ENGINES, engineUnderTest } from "./support/engines";
import { projectRoot, tempDir } from "./support/harness";
import { client, enquiry, invited, NOW, ORIGIN, type Call } from "./support/inbox-client";

const KEYS = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
const FROM = "Cyrus Clinical <replies@cyrus.example>";

/** A DKIM key file of the given mode, in a folder of its own. */
function keyFile(mode: number): string {
  const file = path.join(tempDir("dkim-"), "dkim.pem");
  fs.writeFileSync(file, KEYS.privateKey.export({ type: "pkcs8", format: "pem" }));
  fs.chmodSync(file, mode);
  return file;
}

const replyEnv = (smtpPort: number) => ({
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  ENQUIRY_TO: "desk@cyrus.example",
  ENQUIRY_REPLY_FROM: FROM,
  ENQUIRY_REPLY_TO: "Cyrus desk <desk@cyrus.example>",
  ENQUIRY_DKIM_DOMAIN: "cyrus.example",
  ENQUIRY_DKIM_SELECTOR: "inbox2026",
  ENQUIRY_DKIM_KEY_FILE: keyFile(0o600),
});

const NO_DKIM = { ENQUIRY_DKIM_DOMAIN: undefined, ENQUIRY_DKIM_SELECTOR: undefined, ENQUIRY_DKIM_KEY_FILE: undefined };
const replies = (smtp: SmtpSink) => smtp.messages.filter((m) => /^Subject: Re: /m.test(m.raw));
const key = () => crypto.randomUUID();

const add = (store: EnquiryStore, n: number, extra: Parameters<typeof enquiry>[1] = {}) => {
  const e = enquiry(n, extra);
  return store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
    { destination: "email", messageId: `msg_${e.id}` },
  ]);
};

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  const services: EnquiryService[] = [];
  const sinks: SmtpSink[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.shutdown("test");
    for (const s of sinks.splice(0)) await s.stop();
    await engine.cleanUp();
  });

  async function start(extra: Record<string, string | undefined> = {}, clock = { t: NOW }, mail = true) {
    const smtpPort = await freePort();
    const env = { ...(await engine.env()), SITE_URL: ORIGIN, ENQUIRY_PORT: "0", ...replyEnv(smtpPort), ...extra };
    const service = createEnquiryService({
      env,
      log: jsonLog(() => undefined),
      receiverOptions: { now: () => clock.t, outbox: { random: () => 0.5 }, ...(!mail && { mailer: null }) },
      projectRoot,
    });
    services.push(service);
    const call = client((await service.listen()).port);
    // Invited without mail: the command prints the link.
    const ana = await invited(call, { ...env, SMTP_URL: undefined }, "ana@cyrus.example", "Ana Lima");
    const send = async () => {
      await service.receiver.sendDue();
      await service.receiver.drain();
    };
    return { env, call, ana, service, store: service.receiver.store, smtpPort, send, clock };
  }

  test("the reply's e-mail: threaded under the notification, the text exact, DKIM-signed; one per key; answered once", async () => {
    const s = await start();
    const smtp = await startSmtp(s.smtpPort);
    sinks.push(smtp);
    await add(s.store, 1, { name: "Dana Whitfield", message: "Do you run phase 1 trials?\n\nWe need 40 sites." });
    await s.send(); // the notification, as the company received it
    const notification = smtp.messages.map((m) => parseMail(m.raw)).find((m) => m.header("x-enquiry-id") === "enq-001");
    expect(notification?.header("message-id")).toBe("<enquiry-enq-001@cyrus.example>");

    const draft = key();
    const first = await s.call("POST", "/inbox/api/enquiries/enq-001/replies", {
      cookie: s.ana.cookie,
      body: { text: "Dear Dana,\n\nYes, we do.\n\nAna", key: draft },
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({
      repeated: false,
      reply: {
        at: new Date(NOW).toISOString(),
        by: "Ana Lima",
        text: "Dear Dana,\n\nYes, we do.\n\nAna",
        subject: "Re: Website enquiry from Dana Whitfield",
        to: "person1@sponsor1.example",
        delivery: { state: "due", attempts: 0 },
      },
      work: { status: "answered", answeredAt: new Date(NOW).toISOString(), version: 2 },
    });
    // A double click, another tab: the same reply, and nothing more stored or sent.
    const again = await s.call("POST", "/inbox/api/enquiries/enq-001/replies", {
      cookie: s.ana.cookie,
      body: { text: "Dear Dana, (sent twice)", key: draft },
    });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ repeated: true, reply: { id: (first.json.reply as { id: string }).id } });
    await s.send();
    expect(replies(smtp)).toHaveLength(1);

    const [received] = replies(smtp);
    const mail = parseMail(received!.raw);
    expect(received!.rcptTo).toEqual(["person1@sponsor1.example"]);
    expect(received!.mailFrom).toBe("replies@cyrus.example");
    expect(mail.header("to")).toBe("Dana Whitfield <person1@sponsor1.example>");
    expect(mail.header("from")).toBe(FROM);
    expect(mail.header("reply-to")).toBe("Cyrus desk <desk@cyrus.example>");
    expect(mail.header("subject")).toBe("Re: Website enquiry from Dana Whitfield");
    expect(mail.header("in-reply-to")).toBe(notification!.header("message-id"));
    expect(mail.header("references")).toBe(notification!.header("message-id"));
    expect(mail.header("message-id")).toBe(`<reply-${(first.json.reply as { id: string }).id}@cyrus.example>`);
    expect(mail.header("content-type")).toMatch(/^text\/plain/);
    expect(mail.text).toBe(
      [
        "Dear Dana,",
        "",
        "Yes, we do.",
        "",
        "Ana",
        "",
        `On ${new Date(NOW - 99 * 60_000).toUTCString()}, Dana Whitfield wrote:`,
        "> Do you run phase 1 trials?",
        ">",
        "> We need 40 sites.",
      ].join("\n"),
    );
    const dkim = verifyDkim(received!.raw, KEYS.publicKey);
    expect(dkim).toMatchObject({ ok: true, tags: { d: "cyrus.example", s: "inbox2026" } });
    expect(dkim.signedHeaders).toEqual(expect.arrayContaining(["from", "to", "subject", "in-reply-to", "references"]));
    // Changed in transit: the signature no longer verifies (the check is real).
    expect(verifyDkim(received!.raw.replace("Yes, we do.", "No, we don't."), KEYS.publicKey).ok).toBe(false);

    // A later reply, two hours on: the answered time stays the first's; it is in the history.
    s.clock.t = NOW + 2 * 3600_000;
    const later = await s.call("POST", "/inbox/api/enquiries/enq-001/replies", {
      cookie: s.ana.cookie,
      body: { text: "One more thing.", key: key(), markAnswered: false },
    });
    expect(later.json.work).toMatchObject({ answeredAt: new Date(NOW).toISOString(), status: "answered" });
    await s.send();
    const view = await s.call("GET", "/inbox/api/enquiries/enq-001", { cookie: s.ana.cookie });
    const seen = view.json.enquiry as Record<string, unknown>;
    expect(seen.replies).toEqual([
      expect.objectContaining({ text: "Dear Dana,\n\nYes, we do.\n\nAna", delivery: { state: "done", attempts: 1 } }),
      expect.objectContaining({ text: "One more thing.", by: "Ana Lima", delivery: { state: "done", attempts: 1 } }),
    ]);
    expect(seen.replyable).toEqual({
      to: "person1@sponsor1.example",
      subject: "Re: Website enquiry from Dana Whitfield",
    });
    expect(seen.history).toEqual([
      { at: new Date(NOW).toISOString(), by: "Ana Lima", what: "replied" },
      { at: new Date(NOW).toISOString(), by: "Ana Lima", what: "status: new → answered" },
      { at: new Date(NOW + 2 * 3600_000).toISOString(), by: "Ana Lima", what: "replied" },
    ]);
    const times = await s.call("GET", "/inbox/api/answer-times", { cookie: s.ana.cookie });
    expect(times.json.periods).toEqual(expect.arrayContaining([expect.objectContaining({ days: 30, answered: 1 })]));
    expect(replies(smtp)).toHaveLength(2);

    // A first reply without markAnswered: answered time set, status left as it was.
    await add(s.store, 2);
    const unmarked = await s.call("POST", "/inbox/api/enquiries/enq-002/replies", {
      cookie: s.ana.cookie,
      body: { text: "Thanks, we will look.", key: key(), markAnswered: false },
    });
    expect(unmarked.json.work).toMatchObject({
      status: "new",
      answeredAt: new Date(NOW + 2 * 3600_000).toISOString(),
    });
  }, 60_000);

  test("refused: empty, too long, an address missing or with a line break, a bad key; a name's line break writes no header", async () => {
    const s = await start({}, { t: NOW }, false);
    const smtp = await startSmtp(s.smtpPort);
    sinks.push(smtp);
    await add(s.store, 1);
    await add(s.store, 2, { email: "" });
    await add(s.store, 3, { email: "eve@evil.example\r\nBcc: all@victims.example" });
    await add(s.store, 4, { name: "Eve\r\nBcc: all@victims.example\nX-Evil: 1" });
    const post = (id: string, body: unknown) =>
      s.call("POST", `/inbox/api/enquiries/${id}/replies`, { cookie: s.ana.cookie, body });
    expect((await post("enq-001", { text: "  \n ", key: key() })).json).toEqual({
      error: "empty_text",
      message: "The reply is empty: write something to send.",
    });
    const long = await post("enq-001", { text: "x".repeat(20_001), key: key() });
    expect(long.status).toBe(400);
    expect(long.json).toEqual({
      error: "text_too_long",
      message: "The reply is 20001 characters long; a reply may be 20,000 characters at most. Shorten it.",
    });
    expect((await post("enq-001", { text: "x".repeat(20_000), key: key() })).status).toBe(200);
    expect((await post("enq-001", { text: "Hello", key: "1" })).json).toMatchObject({ error: "bad_request" });
    expect((await post("enq-404", { text: "Hello", key: key() })).status).toBe(404);
    const none = await post("enq-002", { text: "Hello", key: key() });
    expect(none.status).toBe(400);
    expect(none.json).toEqual({
      error: "undeliverable",
      message: "The visitor gave no e-mail address: there is no one to send a reply to.",
    });
    const broken = await post("enq-003", { text: "Hello", key: key() });
    expect(broken.json).toEqual({
      error: "undeliverable",
      message: "The visitor's e-mail address holds a line break: no reply is sent to it.",
    });
    const view = await s.call("GET", "/inbox/api/enquiries/enq-003", { cookie: s.ana.cookie });
    expect((view.json.enquiry as { replyable: unknown }).replyable).toEqual({
      unavailable: "The visitor's e-mail address holds a line break: no reply is sent to it.",
    });
    expect((await post("enq-004", { text: "Hello Eve", key: key() })).status).toBe(200);
    await s.send();
    const sent = replies(smtp);
    expect(sent).toHaveLength(2);
    const eve = sent.map((m) => parseMail(m.raw)).find((m) => m.text.startsWith("Hello Eve"))!;
    expect(eve.rawHeaders.map(([n]) => n.toLowerCase())).not.toContain("bcc");
    expect(eve.rawHeaders.map(([n]) => n.toLowerCase())).not.toContain("x-evil");
    expect(eve.header("to")).toBe('"Eve Bcc: all@victims.example X-Evil: 1" <person4@sponsor1.example>');
    expect(eve.header("subject")).toBe("Re: Website enquiry from Eve Bcc: all@victims.example X-Evil: 1");
    expect(sent.flatMap((m) => m.rcptTo)).not.toContain("all@victims.example");

    // Without ENQUIRY_REPLY_FROM: nothing stored, and the enquiry says why no reply can be sent.
    const unset = await start(
      { ENQUIRY_REPLY_FROM: undefined, ENQUIRY_REPLY_TO: undefined, ...NO_DKIM },
      { t: NOW },
      false,
    );
    await add(unset.store, 1);
    const refused = await unset.call("POST", "/inbox/api/enquiries/enq-001/replies", {
      cookie: unset.ana.cookie,
      body: { text: "Hello", key: key() },
    });
    const why = "Replies are not set up: the operator sets ENQUIRY_REPLY_FROM in the enquiry service's settings.";
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ error: "not_configured", message: why });
    expect(await unset.store.inbox.replies.of("enq-001")).toEqual([]);
    const shown = await unset.call("GET", "/inbox/api/enquiries/enq-001", { cookie: unset.ana.cookie });
    expect(shown.json.enquiry).toMatchObject({ replies: [], replyable: { unavailable: why } });
  }, 60_000);

  test("the mail server down: due with its error, shown and counted; sent later on the schedule and by retry", async () => {
    const s = await start({}, { t: NOW }, false);
    await add(s.store, 1);
    await add(s.store, 2);
    const post = (id: string) =>
      s.call("POST", `/inbox/api/enquiries/${id}/replies`, { cookie: s.ana.cookie, body: { text: "Hi", key: key() } });
    expect((await post("enq-001")).status).toBe(200);
    expect((await post("enq-002")).status).toBe(200);
    await s.send(); // nothing listens on the port
    const view = await s.call("GET", "/inbox/api/enquiries/enq-001", { cookie: s.ana.cookie });
    const enquiryView = view.json.enquiry as {
      replies: Array<{ id: string; delivery: unknown }>;
      outbox: Array<{ destination: string }>;
    };
    expect(enquiryView.replies[0]!.delivery).toEqual({
      state: "due",
      attempts: 1,
      lastError: expect.stringMatching(/ECONNREFUSED/),
      nextAt: new Date(NOW + 30_000).toISOString(),
    });
    // Among the enquiry's deliveries too (the page names it by the reply's time), and re-sent from there.
    expect(enquiryView.outbox).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ destination: `reply:${enquiryView.replies[0]!.id}`, state: "due", attempts: 1 }),
      ]),
    );
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    // (The enquiries' own e-mail, never sent here, fails status: its lines are not looked at.)
    await runEnquiriesCli(["status"], s.env, io, () => NOW);
    expect(out).toContainEqual(
      expect.stringMatching(/^ {2}reply: 2 waiting, 2 being retried; the oldest received 0 min ago/),
    );
    expect(out).toContainEqual(expect.stringMatching(/^ {4}last error: .*ECONNREFUSED/));

    const smtp = await startSmtp(s.smtpPort);
    sinks.push(smtp);
    s.clock.t = NOW + 29_000; // the second attempt is due 30 s after the first
    await s.send();
    expect(replies(smtp)).toHaveLength(0);
    s.clock.t = NOW + 31_000;
    await s.send();
    expect(replies(smtp)).toHaveLength(2);

    // Failed for good: `retry --channel reply` sends it now.
    await add(s.store, 3);
    expect((await post("enq-003")).status).toBe(200);
    await smtp.stop();
    sinks.splice(0);
    for (let attempt = 0; attempt < 12; attempt += 1) {
      s.clock.t += 13 * 3600_000;
      await s.send();
    }
    // (Days on, the session has ended: the store says what the enquiry's page would.)
    const [failed] = await s.store.inbox.replies.of("enq-003");
    expect(failed!.delivery).toEqual({
      state: "failed",
      attempts: 12,
      lastError: expect.stringMatching(/ECONNREFUSED/),
    });
    out.length = 0;
    expect(await runEnquiriesCli(["status"], s.env, io, () => s.clock.t)).toBe(1);
    expect(out).toContainEqual(expect.stringMatching(/^status: FAILING \(.*reply.*\)$/));
    expect(out).toContainEqual(expect.stringMatching(/^ {2}reply: FAILING: 1 waiting, 1 failed for good/));
    const back = await startSmtp(s.smtpPort);
    sinks.push(back);
    out.length = 0;
    expect(await runEnquiriesCli(["retry", "--channel", "reply"], s.env, io, () => s.clock.t)).toBe(0);
    expect(out).toContainEqual(expect.stringMatching(/^delivered {2}enq-003 {2}\S+ {2}reply$/));
    expect(out.join("\n")).not.toMatch(/person3|sponsor/);
    expect(replies(back)).toHaveLength(1);
  }, 60_000);

  test("erasure takes the replies and their outbox rows with the enquiry", async () => {
    const s = await start({}, { t: NOW }, false);
    await add(s.store, 1);
    await add(s.store, 2);
    for (const id of ["enq-001", "enq-002"]) {
      const r = await s.call("POST", `/inbox/api/enquiries/${id}/replies`, {
        cookie: s.ana.cookie,
        body: { text: `Quarrington reply to ${id}`, key: key() },
      });
      expect(r.status).toBe(200);
    }
    const erased = await s.call("POST", "/inbox/api/enquiries/enq-001/erase", {
      cookie: s.ana.cookie,
      body: { confirm: 1 },
    });
    expect(erased.json).toMatchObject({ erased: 1 });
    expect(await s.store.inbox.replies.of("enq-001")).toEqual([]);
    expect(await s.store.inbox.replies.of("enq-002")).toHaveLength(1);
    expect((await s.store.outboxStates()).filter((o) => o.destination === "reply")).toEqual([
      expect.objectContaining({ enquiryId: "enq-002" }),
    ]);
  }, 60_000);

  test("saved answers: added, changed, listed, deleted, each in the audit; limits; the signature", async () => {
    const s = await start({}, { t: NOW }, false);
    const call = (method: string, p: string, body?: unknown) => s.call(method, p, { cookie: s.ana.cookie, body });
    const added = await call("POST", "/inbox/api/saved-answers", {
      title: "Phase 1",
      text: "Dear {name},\n\n{signature}",
    });
    expect(added.status).toBe(200);
    const answer = added.json.answer as { id: number };
    expect(added.json.answer).toEqual({
      id: expect.any(Number),
      title: "Phase 1",
      text: "Dear {name},\n\n{signature}",
      updatedAt: new Date(NOW).toISOString(),
      updatedBy: "Ana Lima",
    });
    const changed = await call("POST", `/inbox/api/saved-answers/${answer.id}`, { title: "Phase 1 sites", text: "Hi" });
    expect(changed.json.answer).toMatchObject({ id: answer.id, title: "Phase 1 sites", text: "Hi" });
    expect((await call("GET", "/inbox/api/saved-answers")).json).toEqual({
      answers: [
        { id: answer.id, title: "Phase 1 sites", text: "Hi", updatedAt: expect.any(String), updatedBy: "Ana Lima" },
      ],
    });
    expect((await call("POST", `/inbox/api/saved-answers/${answer.id}/delete`)).json).toEqual({ deleted: true });
    expect((await call("POST", `/inbox/api/saved-answers/${answer.id}/delete`)).status).toBe(404);
    expect((await call("POST", `/inbox/api/saved-answers/${answer.id}`, { title: "x", text: "y" })).status).toBe(404);
    expect((await call("GET", "/inbox/api/saved-answers")).json).toEqual({ answers: [] });
    const audit = (await s.store.inbox.audit()).filter((a) => a.action === "saved-answer");
    expect(audit.map((a) => [a.who, a.subject])).toEqual([
      ["ana@cyrus.example", `saved answer ${answer.id} added: "Phase 1"`],
      ["ana@cyrus.example", `saved answer ${answer.id} changed: "Phase 1 sites"`],
      ["ana@cyrus.example", `saved answer ${answer.id} deleted: "Phase 1 sites"`],
    ]);

    expect((await call("POST", "/inbox/api/saved-answers", { title: "t".repeat(101), text: "x" })).json).toEqual({
      error: "too_long",
      message: "The title must be one line of 100 characters at most.",
    });
    expect((await call("POST", "/inbox/api/saved-answers", { title: "a\nb", text: "x" })).status).toBe(400);
    expect((await call("POST", "/inbox/api/saved-answers", { title: "T", text: "x".repeat(5_001) })).json).toEqual({
      error: "too_long",
      message: "The saved answer is 5001 characters long; it may be 5,000 at most.",
    });
    expect((await call("POST", "/inbox/api/saved-answers", { title: "T", text: " " })).json).toMatchObject({
      error: "empty_text",
    });
    for (let n = 0; n < 100; n += 1) {
      expect((await call("POST", "/inbox/api/saved-answers", { title: `A${n}`, text: "x" })).status).toBe(200);
    }
    expect((await call("POST", "/inbox/api/saved-answers", { title: "One more", text: "x" })).json).toEqual({
      error: "too_many",
      message: "There are 100 saved answers already, the most there may be: delete one first.",
    });

    expect((await call("GET", "/inbox/api/me")).json.person).toMatchObject({ name: "Ana Lima", signature: "" });
    const signed = await call("POST", "/inbox/api/me/signature", { signature: "Ana Lima\r\nCyrus Clinical" });
    expect(signed.json.person).toMatchObject({ name: "Ana Lima", signature: "Ana Lima\nCyrus Clinical" });
    expect((await call("GET", "/inbox/api/me")).json.person).toMatchObject({ signature: "Ana Lima\nCyrus Clinical" });
    expect((await call("POST", "/inbox/api/me/signature", { signature: "s".repeat(1_001) })).json).toEqual({
      error: "too_long",
      message: "The signature is 1001 characters long; it may be 1000 at most.",
    });
  }, 60_000);
});

describe("settings", () => {
  test("ENQUIRY_REPLY_FROM and ENQUIRY_REPLY_TO; the DKIM settings together; the key file must be private", async () => {
    const root = tempDir();
    const base = { ENQUIRY_DATA_DIR: root, SMTP_URL: "smtp://127.0.0.1:25" };
    expect(loadConfig(base, projectRoot).replies).toBeUndefined();
    expect(loadConfig({ ...base, ENQUIRY_REPLY_FROM: FROM }, projectRoot).replies).toEqual({
      from: FROM,
      replyTo: FROM,
    });
    const open = keyFile(0o644);
    expect(() =>
      loadConfig(
        {
          ...base,
          ENQUIRY_REPLY_FROM: FROM,
          ENQUIRY_DKIM_DOMAIN: "cyrus.example",
          ENQUIRY_DKIM_SELECTOR: "s1",
          ENQUIRY_DKIM_KEY_FILE: open,
        },
        projectRoot,
      ),
    ).toThrow(`ENQUIRY_DKIM_KEY_FILE: ${open} may be read or changed by other users (mode 644)`);
    expect(() =>
      loadConfig({ ...base, ENQUIRY_REPLY_FROM: FROM, ENQUIRY_DKIM_DOMAIN: "cyrus.example" }, projectRoot),
    ).toThrow("ENQUIRY_DKIM_DOMAIN, ENQUIRY_DKIM_SELECTOR, ENQUIRY_DKIM_KEY_FILE are set together");
    expect(() =>
      loadConfig({ ...base, ENQUIRY_REPLY_FROM: "desk@cyrus.example\r\nBcc: x@y.example" }, projectRoot),
    ).toThrow("ENQUIRY_REPLY_FROM must be one e-mail address");
    // Read as nodemailer reads the header: two addresses are refused; a name with a comma is one.
    expect(() =>
      loadConfig({ ...base, ENQUIRY_REPLY_FROM: "desk@cyrus.example, sales@cyrus.example" }, projectRoot),
    ).toThrow("ENQUIRY_REPLY_FROM must be one e-mail address");
    expect(
      loadConfig({ ...base, ENQUIRY_REPLY_FROM: "Cyrus, Research <desk@cyrus.example>" }, projectRoot).replies,
    ).toMatchObject({ from: "Cyrus, Research <desk@cyrus.example>" });
    // nodemailer signs with RSA alone: another kind of key is refused at start, not at each send.
    const ed25519 = path.join(tempDir("dkim-"), "dkim.pem");
    fs.writeFileSync(
      ed25519,
      crypto.generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }),
    );
    fs.chmodSync(ed25519, 0o600);
    const dkim = { ENQUIRY_DKIM_DOMAIN: "cyrus.example", ENQUIRY_DKIM_SELECTOR: "s1" };
    expect(() =>
      loadConfig({ ...base, ENQUIRY_REPLY_FROM: FROM, ...dkim, ENQUIRY_DKIM_KEY_FILE: ed25519 }, projectRoot),
    ).toThrow(`ENQUIRY_DKIM_KEY_FILE: ${ed25519} holds an ed25519 key; DKIM signing here takes an RSA key`);
    expect(
      loadConfig({ ...base, ENQUIRY_REPLY_FROM: FROM, ...dkim, ENQUIRY_DKIM_KEY_FILE: keyFile(0o600) }, projectRoot)
        .replies?.dkim,
    ).toMatchObject({ domainName: "cyrus.example", keySelector: "s1" });
  });
});

describe("two service instances over one PostgreSQL", () => {
  const engine = engineUnderTest("postgres");
  const services: EnquiryService[] = [];
  let smtp: SmtpSink | undefined;
  afterEach(async () => {
    for (const s of services.splice(0)) await s.shutdown("test");
    await smtp?.stop();
    await engine.cleanUp();
  });

  test("the same key sent to both at once: one reply, one message at the SMTP server", async () => {
    smtp = await startSmtp();
    const env = { ...(await engine.env()), SITE_URL: ORIGIN, ENQUIRY_PORT: "0", ...replyEnv(smtp.port) };
    const start = async () => {
      const service = createEnquiryService({
        env,
        log: jsonLog(() => undefined),
        receiverOptions: { now: () => NOW, mailer: null },
        projectRoot,
      });
      services.push(service);
      return client((await service.listen()).port);
    };
    const [a, b] = [await start(), await start()];
    await add(services[0]!.receiver.store, 1);
    const ana = await invited(a, { ...env, SMTP_URL: undefined }, "ana@cyrus.example", "Ana Lima");
    const draft = key();
    const post = (call: Call) =>
      call("POST", "/inbox/api/enquiries/enq-001/replies", { cookie: ana.cookie, body: { text: "Hello", key: draft } });
    const answers = await Promise.all([post(a), post(b), post(a), post(b)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((r) => r.json.repeated === false)).toHaveLength(1);
    expect(new Set(answers.map((r) => (r.json.reply as { id: string }).id)).size).toBe(1);
    await Promise.all(services.map((s) => s.receiver.sendDue()));
    await Promise.all(services.map((s) => s.receiver.drain()));
    expect(replies(smtp)).toHaveLength(1);
    expect(await services[1]!.receiver.store.inbox.replies.of("enq-001")).toEqual([
      expect.objectContaining({ delivery: { state: "done", attempts: 1 } }),
    ]);
  }, 60_000);
});
