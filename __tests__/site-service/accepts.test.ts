/** What the receiver accepts, and exactly what it stores for it. */
import fs from "node:fs";
import path from "node:path";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createReceiver } from "../../src/site-service/enquiries/core/receiver";
import {
  anotherEnquiry,
  memoryLog,
  projectRoot,
  startReceiver,
  storedLineKeys,
  tempDir,
  validEnquiry,
  type Harness,
} from "./support/harness";

let site: Harness;

beforeEach(async () => {
  site = await startReceiver();
});

afterEach(async () => {
  await site.stop();
});

test("a valid enquiry gets 201 with its id, after it is committed", async () => {
  const before = Date.now();
  const answer = await site.post(validEnquiry);
  expect(answer.status).toBe(201);
  expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(answer.headers.get("cache-control")).toBe("no-store");
  expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

  const lines = (await site.storedLines()) as Array<Record<string, string>>;
  expect(lines).toHaveLength(1);
  const [line] = lines;
  expect(Object.keys(line!)).toEqual(storedLineKeys);
  expect(line).toEqual({
    v: 3,
    id: answer.body.id,
    receivedAt: expect.any(String),
    ...validEnquiry,
    screening: { verdict: "clean", signals: [] },
    delivery: "stored-only",
  });
  expect(Date.parse(line!.receivedAt!)).toBeGreaterThanOrEqual(before - 1000);
  // The stored line as the receiver wrote lines before versions existed, behind the version,
  // with the spam screening's verdict before the delivery state.
  expect(`${JSON.stringify(line)}\n`).toBe(
    `{"v":3,"id":"${line!.id}","receivedAt":"${line!.receivedAt}","name":"Priya Raman","phone":"+91 44 2345 6789",` +
      `"email":"priya@example.in","message":"We are planning a phase II study and would like a quote.",` +
      `"screening":{"verdict":"clean","signals":[]},"delivery":"stored-only"}\n`,
  );
});

test("the store's files are private to the receiver's user", async () => {
  await site.post(validEnquiry);
  const files = fs.readdirSync(site.dir);
  expect(files).toEqual(expect.arrayContaining(["enquiries.sqlite", "enquiries.sqlite-wal"]));
  for (const file of files) expect(fs.statSync(path.join(site.dir, file)).mode & 0o777).toBe(0o600);
  expect(fs.statSync(site.dir).mode & 0o777).toBe(0o700);
});

test("an existing data folder readable by others is tightened to 700, its files to 600, when the store opens", async () => {
  const dir = path.join(tempDir(), "data");
  fs.mkdirSync(dir, { mode: 0o755 });
  fs.chmodSync(dir, 0o755);
  fs.writeFileSync(path.join(dir, "notes.txt"), "", { mode: 0o644 });
  fs.chmodSync(path.join(dir, "notes.txt"), 0o644);
  const receiver = createReceiver(loadConfig({ ENQUIRY_DATA_DIR: dir }, projectRoot), { log: memoryLog() });
  await receiver.store.ready();
  expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  expect(fs.statSync(path.join(dir, "notes.txt")).mode & 0o777).toBe(0o600);
  expect(fs.statSync(path.join(dir, "enquiries.sqlite")).mode & 0o777).toBe(0o600);
  await receiver.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
});

test("names and messages in any script are stored and read back exactly", async () => {
  const enquiries = [
    { name: "முருகன் சுப்பிரமணியம்", message: "வணக்கம்! மருத்துவ ஆய்வு பற்றி அறிய விரும்புகிறோம்." },
    { name: "प्रिया शर्मा", message: "नमस्ते, हम चरण III परीक्षण के बारे में जानना चाहते हैं।" },
    { name: "فاطمة الزهراء", message: "مرحباً، نود معرفة المزيد عن خدماتكم.\nشكراً" },
    { name: "Zoë 👩🏽‍🔬 O'Brien-Łukasz", message: "Emoji 🧪💊🏥, combining é, CJK 臨床試験, tab\tand newline\nkept." },
  ];
  const ids: unknown[] = [];
  for (const e of enquiries) {
    const answer = await site.post({ ...validEnquiry, ...e });
    expect(answer.status).toBe(201);
    ids.push(answer.body.id);
  }
  const lines = (await site.storedLines()) as Array<Record<string, string>>;
  expect(lines.map((l) => ({ name: l.name, message: l.message }))).toEqual(enquiries);
  expect(lines.map((l) => l.id)).toEqual(ids);
  const listed = await site.receiver.store.list();
  expect(listed.enquiries.map((e) => e.name)).toEqual(enquiries.map((e) => e.name));
});

test("leading and trailing whitespace is trimmed; the phone may be absent or empty", async () => {
  expect((await site.post({ name: "  Priya ", email: " priya@example.in ", message: "\n Hello \n" })).status).toBe(201);
  expect((await site.post({ ...anotherEnquiry(1), phone: "" })).status).toBe(201);
  expect((await site.post({ ...anotherEnquiry(2), phone: "   " })).status).toBe(201);
  const lines = (await site.storedLines()) as Array<Record<string, string>>;
  expect(lines[0]).toMatchObject({ name: "Priya", email: "priya@example.in", message: "Hello", phone: "" });
  expect(lines.map((l) => l.phone)).toEqual(["", "", ""]);
});

test("phones in the usual notations are accepted", async () => {
  for (const phone of ["+91 98765 43210", "(044) 2345-6789", "044-23456789", "+1 (555) 010-0000"]) {
    expect((await site.post({ ...validEnquiry, phone })).status).toBe(201);
  }
});

test("__proto__ and constructor keys do nothing, and extra fields are neither used nor stored", async () => {
  const payload =
    '{"__proto__": {"polluted": "yes", "name": "from-proto"}, "constructor": {"prototype": {"polluted": "yes"}},' +
    ' "name": "Priya", "email": "priya@example.in", "message": "Hi", "isAdmin": true, "delivery": "delivered",' +
    ' "id": "chosen-by-client", "receivedAt": "1999-01-01T00:00:00Z", "v": 99,' +
    ' "screening": {"verdict": "clean", "signals": ["chosen-by-client"]}}';
  const answer = await site.post(payload);
  expect(answer.status).toBe(201);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty("polluted");
  const [line] = (await site.storedLines()) as Array<Record<string, unknown>>;
  expect(Object.keys(line!)).toEqual(storedLineKeys);
  expect(line).toMatchObject({
    v: 3,
    name: "Priya",
    phone: "",
    screening: { verdict: "clean", signals: [] },
    delivery: "stored-only",
  });
  expect(line!.id).toBe(answer.body.id);
  expect(line!.id).not.toBe("chosen-by-client");
  expect(line!.receivedAt).not.toMatch(/^1999/);
});

test("a required field that exists only on the prototype is still missing", async () => {
  const answer = await site.post('{"__proto__": {"name": "x", "email": "a@b.co", "message": "m"}}');
  expect(answer.status).toBe(400);
  expect(answer.body.fields).toEqual({ name: "is required", email: "is required", message: "is required" });
});

test.each<[string, Record<string, string>]>([
  ["no Origin (a client that is not a browser)", {}],
  ["the site's origin", { origin: "https://www.example.com" }],
  ["the preview server", { origin: "http://localhost:9000" }],
  ["the development server", { origin: "http://localhost:8000", "sec-fetch-site": "same-site" }],
  ["the request's own origin (same host)", { origin: "http://HOST", "sec-fetch-site": "same-origin" }],
  ["the form's anti-forgery header", { "x-xsrf-token": "abc123" }],
])("%s is accepted", async (_label, headers) => {
  const host = new URL(site.url).host;
  const withHost = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace("HOST", host)]));
  expect((await site.post(validEnquiry, withHost)).status).toBe(201);
});

test("ENQUIRY_ALLOWED_ORIGINS replaces the default origins", async () => {
  await site.stop();
  site = await startReceiver({ ENQUIRY_ALLOWED_ORIGINS: "https://cyrus.example, https://www.cyrus.example/" });
  expect((await site.post(validEnquiry, { origin: "https://www.cyrus.example" })).status).toBe(201);
  expect((await site.post(validEnquiry, { origin: "https://www.example.com" })).status).toBe(403);
});

test("X-Forwarded-For is ignored unless ENQUIRY_TRUST_PROXY=1, then its last address is the client", async () => {
  await site.stop();
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1" });
  expect((await site.post(anotherEnquiry(1), { "x-forwarded-for": "203.0.113.1" })).status).toBe(201);
  expect((await site.post(anotherEnquiry(2), { "x-forwarded-for": "203.0.113.2" })).status).toBe(429);
  await site.stop();

  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1", ENQUIRY_TRUST_PROXY: "1" });
  expect((await site.post(anotherEnquiry(1), { "x-forwarded-for": "203.0.113.1" })).status).toBe(201);
  expect((await site.post(anotherEnquiry(2), { "x-forwarded-for": "203.0.113.2" })).status).toBe(201);
  // A forged first entry does not help: the proxy's own (last) entry counts.
  expect((await site.post(anotherEnquiry(3), { "x-forwarded-for": "198.51.100.9, 203.0.113.1" })).status).toBe(429);
});
