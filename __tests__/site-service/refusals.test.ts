/**
 * Every request the receiver refuses, over real HTTP: the status, the JSON error body (code and
 * named fields), the Allow / Retry-After headers, and that nothing at all was stored.
 */
import { anotherEnquiry, startReceiver, validEnquiry, type Harness } from "./support/harness";

let site: Harness;

beforeEach(async () => {
  site = await startReceiver();
});

afterEach(async () => {
  await site.stop();
});

/** Refused: the store holds nothing. */
async function expectNothingStored(): Promise<void> {
  expect(await site.storedLines()).toEqual([]);
}

test.each(["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])("%s is refused with 405 and Allow: POST", async (method) => {
  const answer = await site.post(validEnquiry, {}, method);
  expect(answer.status).toBe(405);
  expect(answer.headers.get("allow")).toBe("POST");
  expect(answer.body).toMatchObject({ error: "method_not_allowed" });
  await expectNothingStored();
});

test.each([
  ["no content type", undefined],
  ["text/plain", "text/plain"],
  ["a form in another charset", "application/x-www-form-urlencoded; charset=iso-8859-1"],
  ["multipart", "multipart/form-data; boundary=x"],
  ["JSON in another charset", "application/json; charset=iso-8859-1"],
])("a body that is neither JSON nor a UTF-8 form (%s) gets 415", async (_label, contentType) => {
  const res = await fetch(site.url, {
    method: "POST",
    headers: contentType ? { "content-type": contentType } : {},
    body: contentType ? JSON.stringify(validEnquiry) : new Blob([JSON.stringify(validEnquiry)]),
  });
  expect(res.status).toBe(415);
  expect(await res.json()).toMatchObject({ error: "unsupported_media_type" });
  await expectNothingStored();
});

test("application/json with charset=utf-8 is accepted (the control for the 415 cases)", async () => {
  expect((await site.post(validEnquiry, { "content-type": "application/json; charset=UTF-8" })).status).toBe(201);
});

test("a body over 16 KiB gets 413, whether its length is declared or it comes in chunks", async () => {
  const big = JSON.stringify({ ...validEnquiry, message: "x".repeat(16 * 1024) });
  const declared = await site.post(big);
  expect(declared.status).toBe(413);
  expect(declared.body).toMatchObject({ error: "payload_too_large" });

  // A stream body has no Content-Length: the receiver must stop reading at the limit.
  const chunked = await fetch(site.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: new Blob([big]).stream(),
    duplex: "half",
  } as RequestInit);
  expect(chunked.status).toBe(413);
  expect(await chunked.json()).toMatchObject({ error: "payload_too_large" });
  await expectNothingStored();
});

test("a body of exactly 16 KiB is not refused for its size", async () => {
  const base = JSON.stringify({ ...validEnquiry, message: "" });
  const padded = `${base.slice(0, -1)}${" ".repeat(16 * 1024 - base.length)}}`;
  expect(Buffer.byteLength(padded)).toBe(16 * 1024);
  const answer = await site.post(padded);
  expect(answer.status).toBe(400); // reaches field validation: message is empty
  expect(answer.body).toMatchObject({ error: "invalid_fields", fields: { message: "is required" } });
});

test.each([
  ["malformed JSON", '{"name": "Priya",'],
  ["an empty body", ""],
  ["an array", JSON.stringify([validEnquiry])],
  ["a string", JSON.stringify("hello")],
  ["null", "null"],
  ["bytes that are not UTF-8", Buffer.from([0x7b, 0x22, 0x6e, 0xff, 0xfe, 0x22, 0x7d])],
])("%s gets 400 invalid_json", async (_label, body) => {
  const answer = await site.post(body);
  expect(answer.status).toBe(400);
  expect(answer.body).toMatchObject({ error: "invalid_json" });
  expect(typeof answer.body.message).toBe("string");
  await expectNothingStored();
});

test.each<[string, Record<string, unknown>, Record<string, string>]>([
  ["everything missing", {}, { name: "is required", email: "is required", message: "is required" }],
  [
    "empty strings",
    { name: "", email: "", message: "" },
    { name: "is required", email: "is required", message: "is required" },
  ],
  [
    "whitespace only",
    { ...validEnquiry, name: "  \t ", message: "\n\n  " },
    { name: "is required", message: "is required" },
  ],
  [
    "a field that is not a string",
    { ...validEnquiry, name: 42, phone: ["1"], message: { text: "hi" } },
    { name: "must be a string", phone: "must be a string", message: "must be a string" },
  ],
  ["null for a field", { ...validEnquiry, email: null }, { email: "must be a string" }],
  [
    "a name over 200 characters",
    { ...validEnquiry, name: "a".repeat(201) },
    { name: "must be at most 200 characters" },
  ],
  [
    "a phone over 40 characters",
    { ...validEnquiry, phone: "1".repeat(41) },
    { phone: "must be at most 40 characters" },
  ],
  [
    "a phone with letters",
    { ...validEnquiry, phone: "+91 44 CALL ME" },
    { phone: "may contain only digits, spaces and + - ( )" },
  ],
  [
    "a phone with other signs",
    { ...validEnquiry, phone: "044/2345#6789" },
    { phone: "may contain only digits, spaces and + - ( )" },
  ],
  [
    "an e-mail that is not an address",
    { ...validEnquiry, email: "priya at example.in" },
    { email: "must be an e-mail address" },
  ],
  [
    "an e-mail without a domain dot",
    { ...validEnquiry, email: "priya@localhost" },
    { email: "must be an e-mail address" },
  ],
  [
    "an e-mail with a second address",
    { ...validEnquiry, email: "priya@example.in, boss@example.in" },
    { email: "must be an e-mail address" },
  ],
  [
    "an e-mail carrying a header",
    { ...validEnquiry, email: "priya@example.in\r\nBcc: all@example.com" },
    { email: "must be an e-mail address" },
  ],
  [
    "an e-mail over 254 characters",
    { ...validEnquiry, email: `${"a".repeat(64)}@${"b".repeat(186)}.com` },
    { email: "must be at most 254 characters" },
  ],
  [
    "a message over 5000 characters",
    { ...validEnquiry, message: "m".repeat(5001) },
    { message: "must be at most 5000 characters" },
  ],
  [
    "a control character",
    { ...validEnquiry, message: "hello\u0000world" },
    { message: "must not contain control characters" },
  ],
])("%s gets 400 naming the fields", async (_label, payload, fields) => {
  const answer = await site.post(payload);
  expect(answer.status).toBe(400);
  expect(answer.body).toEqual({ error: "invalid_fields", message: expect.any(String), fields });
  for (const field of Object.keys(fields)) expect(answer.body.message).toContain(field);
  await expectNothingStored();
});

test("the limits count characters, not UTF-16 units: 200 emoji are a valid name", async () => {
  expect((await site.post({ ...validEnquiry, name: "😀".repeat(200) })).status).toBe(201);
  expect((await site.post({ ...validEnquiry, name: "😀".repeat(201) })).status).toBe(400);
});

test.each<[string, Record<string, string>]>([
  ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
  ["an Origin of another site", { origin: "https://evil.example" }],
  ["an Origin that is a look-alike of the site", { origin: "https://www.example.com.evil.example" }],
  ["Origin: null", { origin: "null" }],
  [
    "an allowed Origin but Sec-Fetch-Site: cross-site",
    { origin: "https://www.example.com", "sec-fetch-site": "cross-site" },
  ],
])("a cross-site request (%s) gets 403", async (_label, headers) => {
  const answer = await site.post(validEnquiry, headers);
  expect(answer.status).toBe(403);
  expect(answer.body).toMatchObject({ error: "cross_site_request" });
  await expectNothingStored();
});

test("more than the allowed enquiries from one address in the window get 429 with Retry-After", async () => {
  await site.stop();
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "2", ENQUIRY_RATE_WINDOW_SECONDS: "60" });
  expect((await site.post(anotherEnquiry(1))).status).toBe(201);
  expect((await site.post(anotherEnquiry(2))).status).toBe(201);
  const refused = await site.post(anotherEnquiry(3));
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ error: "rate_limited" });
  const retryAfter = Number(refused.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(55);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(await site.storedLines()).toHaveLength(2); // the refused third one was not stored
});

test("the default limit is 5 enquiries per 10 minutes", async () => {
  await site.stop();
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: undefined });
  for (let i = 0; i < 5; i += 1) expect((await site.post(anotherEnquiry(i))).status).toBe(201);
  const refused = await site.post(anotherEnquiry(5));
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(590);
  expect(await site.storedLines()).toHaveLength(5);
});

test("refused requests do not use up the allowance", async () => {
  await site.stop();
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1" });
  for (let i = 0; i < 3; i += 1) expect((await site.post({ ...validEnquiry, email: "nope" })).status).toBe(400);
  expect((await site.post(validEnquiry)).status).toBe(201);
});
