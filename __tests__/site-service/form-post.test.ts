/**
 * The contact form posted by the browser itself (before or without JavaScript):
 * application/x-www-form-urlencoded, checked and stored like the JSON request, answered with
 * 303 See Other to the result page of the outcome. Cross-site posts are refused with 403.
 */
import { startReceiver, storedLineKeys, validEnquiry, type Harness } from "./support/harness";

let site: Harness;
let host: string;

beforeEach(async () => {
  site = await startReceiver();
  host = new URL(site.url).host;
});

afterEach(async () => {
  await site.stop();
});

const FORM = "application/x-www-form-urlencoded";

/** What Chromium sends for the site's own form: the page's origin, same-origin. */
function browserHeaders(extra: Record<string, string> = {}) {
  return {
    "content-type": FORM,
    origin: `http://${host}`,
    "sec-fetch-site": "same-origin",
    "sec-fetch-mode": "navigate",
    ...extra,
  };
}

async function postForm(fields: Record<string, string> | string, headers: Record<string, string> = browserHeaders()) {
  const body = typeof fields === "string" ? fields : new URLSearchParams(fields).toString();
  const res = await fetch(site.url, { method: "POST", headers, body, redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), headers: res.headers, text: await res.text() };
}

test("a valid form post is stored once, then answered 303 to /contact/sent", async () => {
  const res = await postForm({ ...validEnquiry, message: "Line one\r\nLine two" });
  expect(res.status).toBe(303);
  expect(res.location).toBe("/contact/sent");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.text).toContain('<a href="/contact/sent">');
  // The same record as a JSON enquiry: the textarea's CRLF (a form's line break) stored as LF.
  expect(await site.storedLines()).toEqual([
    {
      v: 3,
      id: expect.any(String),
      receivedAt: expect.any(String),
      ...validEnquiry,
      message: "Line one\nLine two",
      screening: { verdict: "clean", signals: [] },
      delivery: "stored-only",
    },
  ]);
});

test("the redirect carries no personal data: the same fixed path whatever was sent", async () => {
  const res = await postForm({
    name: "Priya Raman",
    phone: "+91 98765 43210",
    email: "priya@example.in",
    message: "Secret plans",
  });
  expect(res.location).toBe("/contact/sent");
  for (const value of ["Priya", "98765", "priya", "Secret"]) expect(`${res.location}${res.text}`).not.toContain(value);
});

test("names and messages in any script arrive intact (UTF-8, percent-encoded)", async () => {
  const fields = { name: "முருகன் சுப்பிரமணியம்", email: "murugan@example.in", message: "வணக்கம்! 🙏 नमस्ते" };
  expect((await postForm(fields, browserHeaders({ "content-type": `${FORM}; charset=UTF-8` }))).location).toBe(
    "/contact/sent",
  );
  expect(await site.storedLines()).toEqual([expect.objectContaining({ ...fields, phone: "" })]);
});

test.each<[string, Record<string, string> | string]>([
  ["a blank name (the browser's required check lets spaces through)", { ...validEnquiry, name: "   " }],
  ["no message field at all", { name: "Priya", email: "priya@example.in" }],
  ["every field empty", { name: "", phone: "", email: "", message: "" }],
])("%s: 303 to /contact/incomplete, nothing stored", async (_label, fields) => {
  const res = await postForm(fields);
  expect(res.status).toBe(303);
  expect(res.location).toBe("/contact/incomplete");
  expect(await site.storedLines()).toEqual([]);
});

test.each<[string, Record<string, string> | string]>([
  ["an e-mail that is not an address", { ...validEnquiry, email: "priya at example" }],
  ["a phone with letters", { ...validEnquiry, phone: "call me" }],
  ["a message over 5000 characters", { ...validEnquiry, message: "x".repeat(5001) }],
  ["a field sent twice", `${new URLSearchParams(validEnquiry).toString()}&email=other%40example.in`],
  ["a body over 16 KiB", { ...validEnquiry, message: "x".repeat(17_000) }],
])("%s: 303 to /contact/error, nothing stored", async (_label, fields) => {
  const res = await postForm(fields);
  expect(res.status).toBe(303);
  expect(res.location).toBe("/contact/error");
  expect(await site.storedLines()).toEqual([]);
});

test("fields other than the four are ignored, prototype names included", async () => {
  const body = `${new URLSearchParams(validEnquiry).toString()}&__proto__=x&constructor=y&isAdmin=1`;
  expect((await postForm(body)).location).toBe("/contact/sent");
  const [line] = (await site.storedLines()) as Array<Record<string, unknown>>;
  expect(Object.keys(line!)).toEqual(storedLineKeys);
});

test("past the rate limit: 303 to /contact/error, the refused one not stored", async () => {
  await site.stop();
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1" });
  host = new URL(site.url).host;
  expect((await postForm({ ...validEnquiry, message: "first" })).location).toBe("/contact/sent");
  expect((await postForm({ ...validEnquiry, message: "second" })).location).toBe("/contact/error");
  expect(await site.storedLines()).toHaveLength(1);
});

test.each<[string, Record<string, string>]>([
  ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site", origin: "https://attacker.example" }],
  ["a foreign Origin", { origin: "https://attacker.example", "sec-fetch-site": "same-origin" }],
  ["Origin: null (a sandboxed frame)", { origin: "null" }],
])("a cross-site post (%s) is refused with 403 and stores nothing", async (_label, headers) => {
  const res = await postForm(validEnquiry, { "content-type": FORM, ...headers });
  expect(res.status).toBe(403);
  expect(res.location).toBeNull();
  expect(JSON.parse(res.text)).toMatchObject({ error: "cross_site_request" });
  expect(await site.storedLines()).toEqual([]);
});

test("posted from an allowed origin other than the receiver's (a backend elsewhere): the result page on that site", async () => {
  await site.stop();
  site = await startReceiver({ SITE_URL: "https://www.cyrus.example" });
  const res = await postForm(validEnquiry, {
    "content-type": FORM,
    origin: "https://www.cyrus.example",
    "sec-fetch-site": "cross-site",
  });
  expect(res.status).toBe(403); // a browser marks a post to another site cross-site: never accepted
  const sameSite = await postForm(validEnquiry, {
    "content-type": FORM,
    origin: "https://www.cyrus.example",
    "sec-fetch-site": "same-site",
  });
  expect(sameSite.status).toBe(303);
  expect(sameSite.location).toBe("https://www.cyrus.example/contact/sent");
});

test("JSON requests keep their JSON answers", async () => {
  const json = await site.post(validEnquiry);
  expect(json.status).toBe(201);
  expect(json.body).toEqual({ ok: true, id: expect.any(String) });
  const blank = await site.post({ ...validEnquiry, message: "new", name: " " });
  expect(blank.status).toBe(400);
  expect(blank.body).toMatchObject({ error: "invalid_fields", fields: { name: "is required" } });
});
