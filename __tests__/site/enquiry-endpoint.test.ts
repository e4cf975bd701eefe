/**
 * The enquiry endpoint of the built site, as `gatsby serve` runs it: /api/email stores a valid
 * enquiry in ENQUIRY_DATA_DIR and answers 201, and refuses bad requests with the receiver's own
 * JSON answers (so Gatsby's body parsers are out of the way). Needs `gatsby build` first.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readStoredLines } from "../../src/site-service";
import { projectRoot, serveBuiltSite, type RunningSite } from "../support/serve";

let site: RunningSite;
let dataDir: string;
// Read through the store while gatsby serve's function has it open (SQLite's WAL lets both read).
const storedLines = () => readStoredLines({ ENQUIRY_DATA_DIR: dataDir }) as Promise<Array<Record<string, unknown>>>;

const enquiry = {
  name: "முருகன் Priya",
  phone: "+91 44 2345 6789",
  email: "priya@example.in",
  message: "A quote for a phase II study, please.",
};

beforeAll(async () => {
  if (!fs.existsSync(path.join(projectRoot, "public", "index.html"))) {
    throw new Error("public/ has not been built: run `npm run build` (or `npm run test:site`, which builds) first");
  }
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "site-enquiries-"));
  // No mail settings: a developer's own SMTP_URL must not send test mail.
  site = await serveBuiltSite({ ENQUIRY_DATA_DIR: dataDir, SMTP_URL: "", ENQUIRY_TO: "", ENQUIRY_RATE_LIMIT: "100" });
}, 90_000);

afterAll(async () => {
  await site?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const post = (body: BodyInit, contentType = "application/json", headers: Record<string, string> = {}) =>
  fetch(`${site.origin}/api/email`, { method: "POST", headers: { "content-type": contentType, ...headers }, body });

test("a valid enquiry is answered 201 with its id, and stored as one line", async () => {
  const res = await post(JSON.stringify(enquiry));
  expect(res.status).toBe(201);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await res.json()) as { ok: boolean; id: string };
  expect(body).toEqual({ ok: true, id: expect.any(String) });
  expect(await storedLines()).toEqual([
    {
      v: 3,
      id: body.id,
      receivedAt: expect.any(String),
      ...enquiry,
      screening: { verdict: "clean", signals: [] },
      delivery: "stored-only",
    },
  ]);
});

test("a suspect enquiry (the honeypot filled, a link in the name) is answered 201 like any, and stored flagged", async () => {
  const suspect = { ...enquiry, name: "Loans https://bit.ly/x", cyrus_confirm_field: "filled by a script" };
  const res = await post(JSON.stringify(suspect));
  expect(res.status).toBe(201);
  const { id } = (await res.json()) as { id: string };
  const line = (await storedLines()).find((l) => (l as { id: string }).id === id);
  expect(line).toMatchObject({
    v: 3,
    name: suspect.name,
    screening: { verdict: "suspect", signals: ["honeypot", "url-in-name", "url-shortener"] },
  });
  expect(JSON.stringify(line)).not.toContain("filled by a script");
});

test.each<[string, () => Promise<Response>, number, string]>([
  ["malformed JSON", () => post('{"name": "Priya",'), 400, "invalid_json"],
  ["a missing field", () => post(JSON.stringify({ ...enquiry, email: "" })), 400, "invalid_fields"],
  ["text/plain", () => post(JSON.stringify(enquiry), "text/plain"), 415, "unsupported_media_type"],
  ["XML", () => post("<enquiry/>", "application/xml"), 415, "unsupported_media_type"],
  [
    "a body over 16 KiB",
    () => post(JSON.stringify({ ...enquiry, message: "x".repeat(20_000) })),
    413,
    "payload_too_large",
  ],
  [
    "a body over Gatsby's own 100 kB limit",
    () => post(JSON.stringify({ ...enquiry, message: "x".repeat(200_000) })),
    413,
    "payload_too_large",
  ],
  [
    "a cross-site post",
    () => post(JSON.stringify(enquiry), "application/json", { origin: "https://evil.example" }),
    403,
    "cross_site_request",
  ],
  ["GET", () => fetch(`${site.origin}/api/email`), 405, "method_not_allowed"],
])("%s is refused with the receiver's JSON answer and nothing stored", async (_label, send, status, error) => {
  const before = (await storedLines()).length;
  const res = await send();
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(await res.json()).toMatchObject({ error });
  if (status === 405) expect(res.headers.get("allow")).toBe("POST");
  expect(await storedLines()).toHaveLength(before);
});

describe("the form posted by the browser itself (no JavaScript)", () => {
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(`${site.origin}/api/email`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: site.origin,
        "sec-fetch-site": "same-origin",
        ...headers,
      },
      body: new URLSearchParams(fields).toString(),
      redirect: "manual",
    });

  test.each<[string, string, Record<string, string>, string]>([
    [
      "a valid enquiry is stored and",
      "/contact/sent",
      { ...enquiry, message: "Sent without JavaScript." },
      "Your message has been sent successfully!",
    ],
    [
      "a blank required field",
      "/contact/incomplete",
      { ...enquiry, name: " ", message: "blank name" },
      "Please fill in all required fields.",
    ],
    [
      "an invalid e-mail",
      "/contact/error",
      { ...enquiry, email: "nobody", message: "bad address" },
      "There was an error sending your message. Please try again later.",
    ],
  ])("%s is answered 303 to %s, a built page with the form's message", async (_label, location, fields, message) => {
    const before = (await storedLines()).length;
    const res = await form(fields);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(location);
    expect(await storedLines()).toHaveLength(before + (location === "/contact/sent" ? 1 : 0));
    const page = await fetch(`${site.origin}${location}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`>${message}</p>`);
    expect(html).toContain('<a href="/contact">');
    expect(html).toMatch(/<meta name="robots" content="noindex"/);
  });

  test("a cross-site post is refused with 403 and stores nothing", async () => {
    const before = (await storedLines()).length;
    const res = await form(enquiry, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(res.status).toBe(403);
    expect(await storedLines()).toHaveLength(before);
  });
});
