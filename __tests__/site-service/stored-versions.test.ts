/**
 * Stored lines carry the definition's version ("v"); lines written before versions existed (the
 * fixture: JSON-lines files as the receiver of that time wrote them, imported into the store at its
 * start) stay readable by everything that reads the store: the listing, re-sending, and the
 * recognition of a resend. A line that lacks a field its version had is set aside as unreadable.
 */
import fs from "node:fs";
import path from "node:path";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createReceiver } from "../../src/site-service/enquiries/core/receiver";
import { retryUndelivered } from "../../src/site-service/enquiries/outbox/retry";
import type { Mailer } from "../../src/site-service/enquiries/mail/mailer";
import { composeMessage } from "../../src/site-service/enquiries/mail/mailer";
import { openStore } from "../../src/site-service/enquiries/store/open-store";
import { memoryLog, projectRoot, tempDir } from "./support/harness";

const FIXTURE = path.join(__dirname, "fixtures", "unversioned");
const OLD = {
  id: "6f1c2a34-8b9d-4e21-a7c5-0d3e9f412b67",
  receivedAt: "2026-11-20T09:30:00.000Z",
  name: "Lakshmi Narayanan",
  phone: "+91 44 2345 6789",
  email: "Lakshmi@Example.in",
  message: "An enquiry stored before lines carried a version.\nSecond line.",
};

let dir: string;
const storeIn = (dataDir: string) => openStore({ dataDir, databaseUrl: undefined, databaseConnections: 1 });
beforeEach(() => {
  dir = tempDir();
  for (const file of ["enquiries.jsonl", "deliveries.jsonl"])
    fs.copyFileSync(path.join(FIXTURE, file), path.join(dir, file));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test("unversioned lines read as today's records; one missing a field of its time is set aside as unreadable", async () => {
  const store = storeIn(dir);
  expect((await store.ready()).imported).toMatchObject({ enquiries: 2, deliveries: 1, unreadableLines: 1 });
  const { enquiries, damagedLines } = await store.list();
  expect(enquiries).toEqual([
    {
      ...OLD,
      delivery: "failed",
      attempts: 1,
      lastAttemptAt: "2026-11-20T09:30:01.000Z",
      lastError: expect.any(String),
    },
    {
      id: "0a7d5e1b-3c42-4f8e-9b6a-2e8c7d1f5a90",
      receivedAt: "2026-11-20T09:45:00.000Z",
      name: "Arun Kumar",
      phone: "",
      email: "arun@example.in",
      message: "No phone given.",
      delivery: "stored-only",
      attempts: 0,
    },
  ]);
  expect(damagedLines).toBe(0);
  await store.close();
  const [setAside, ...more] = fs.readdirSync(dir).filter((f) => f.startsWith("enquiries.jsonl."));
  expect(more).toEqual([]);
  expect(setAside).toMatch(/^enquiries\.jsonl\.\d{8}T\d{9}Z\.unreadable$/);
  expect(fs.readFileSync(path.join(dir, setAside!), "utf8").split("\n").filter(Boolean)).toHaveLength(1);
});

test("`enquiries list` shows them, and `--json` prints them without a version", async () => {
  const out: string[] = [];
  const io = { out: (l: string) => out.push(l), err: () => undefined };
  expect(await runEnquiriesCli(["list"], { ENQUIRY_DATA_DIR: dir }, io)).toBe(0);
  expect(out.find((l) => l.includes(OLD.id))).toBe(
    "2026-11-20 09:30  6f1c2a34-8b9d-4e21-a7c5-0d3e9f412b67  failed       1      Lakshmi Narayanan     " +
      "Lakshmi@Example.in            +91 44 2345 6789  An enquiry stored before lines carried …",
  );
  out.length = 0;
  expect(await runEnquiriesCli(["list", "--json"], { ENQUIRY_DATA_DIR: dir }, io)).toBe(0);
  expect(Object.keys(JSON.parse(out[0]!) as object)).toEqual([
    "id",
    "receivedAt",
    "name",
    "phone",
    "email",
    "message",
    "delivery",
    "attempts",
    "lastAttemptAt",
    "lastError",
  ]);
});

test("retry e-mails an unversioned enquiry with every field", async () => {
  const sent: string[] = [];
  const mailer: Mailer = {
    async send(enquiry) {
      sent.push(String(composeMessage(enquiry, "desk@cyrus.example", "desk@cyrus.example").text));
      return { messageId: "m1" };
    },
  };
  const store = storeIn(dir);
  const summary = await retryUndelivered(store, mailer);
  await store.close();
  expect(summary.delivered.map((e) => e.id)).toEqual([OLD.id]);
  expect(sent).toEqual([
    [
      "Name: Lakshmi Narayanan",
      "Phone: +91 44 2345 6789",
      "E-mail: Lakshmi@Example.in",
      "",
      "Message:",
      OLD.message,
      "",
      "--",
      `Enquiry ${OLD.id}, received ${OLD.receivedAt} through the website's contact form.`,
    ].join("\n"),
  ]);
});

test("a resend of an unversioned enquiry is recognised; a new one is stored as a version 3 line after the old ones", async () => {
  const receiver = createReceiver(loadConfig({ ENQUIRY_DATA_DIR: dir }, projectRoot), {
    mailer: null,
    now: () => Date.parse(OLD.receivedAt) + 60 * 60_000,
    log: memoryLog(),
  });
  const post = (fields: object) =>
    receiver.handleEnquiry({
      method: "POST",
      headers: { "content-type": "application/json" },
      rawBody: Buffer.from(JSON.stringify(fields)),
      clientAddress: "127.0.0.1",
    });
  const { id: _id, receivedAt: _at, ...fields } = OLD;
  const resend = await post({ ...fields, email: fields.email.toLowerCase() });
  expect(resend.status).toBe(200);
  expect(JSON.parse(resend.body)).toEqual({ ok: true, id: OLD.id, duplicate: true });

  const added = await post({ ...fields, message: "A new one." });
  expect(added.status).toBe(201);
  const lines = await receiver.store.storedLines();
  await receiver.close();
  expect(lines.map((l) => (l as { id: string }).id)).toEqual([
    OLD.id,
    "0a7d5e1b-3c42-4f8e-9b6a-2e8c7d1f5a90",
    JSON.parse(added.body).id,
  ]);
  expect(lines.at(-1)).toEqual({
    v: 3,
    id: JSON.parse(added.body).id,
    receivedAt: new Date(Date.parse(OLD.receivedAt) + 60 * 60_000).toISOString(),
    ...fields,
    message: "A new one.",
    screening: { verdict: "clean", signals: [] },
    delivery: "stored-only",
  });
});

test("a line of an unknown shape or version is set aside as unreadable, not a crash", async () => {
  const file = path.join(dir, "enquiries.jsonl");
  fs.writeFileSync(file, "");
  const line = { ...OLD, delivery: "pending" };
  for (const v of ["2", 0, 1.5, null]) fs.appendFileSync(file, `${JSON.stringify({ v, ...line })}\n`);
  fs.appendFileSync(file, `${JSON.stringify({ v: 2, ...line, name: 7 })}\n[1]\n"text"\n`);
  const store = storeIn(dir);
  expect((await store.ready()).imported).toMatchObject({ enquiries: 0, unreadableLines: 7 });
  expect((await store.list()).enquiries).toEqual([]);
  await store.close();
});
