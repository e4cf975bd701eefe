/**
 * `npm run enquiries -- list --suspect` and `-- not-spam <id>`: the suspects listed with their
 * signals, one cleared as not spam (its stored line untouched), and the listing showing it
 * cleared; reviews.jsonl of earlier versions imported at start.
 */
import fs from "node:fs";
import path from "node:path";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { openStore } from "../../src/site-service/enquiries/store/open-store";
import { anotherEnquiry, startReceiver, validEnquiry, type Harness } from "./support/harness";

const HONEYPOT = "cyrus_confirm_field";
const suspect = {
  ...validEnquiry,
  message: `${validEnquiry.message}\nhttps://a.example/1\nhttps://a.example/2\nhttps://a.example/3`,
  [HONEYPOT]: "http://trap-value.example",
};

let site: Harness;
beforeEach(async () => {
  site = await startReceiver();
});
afterEach(async () => {
  await site.stop();
});

test("the CLI lists the suspects, clears one as not spam, and shows it cleared", async () => {
  const flagged = await site.post(suspect);
  await site.post(anotherEnquiry("clean"));
  const id = String(flagged.body.id);
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
  const env = { ENQUIRY_DATA_DIR: site.dir };

  expect(await runEnquiriesCli(["list"], env, io)).toBe(0);
  expect(out.at(-1)).toMatch(/^2 enquiries in /);
  expect(out.filter((l) => l.startsWith("    possible spam:"))).toEqual([
    "    possible spam: honeypot, urls-in-message",
  ]);

  out.length = 0;
  expect(await runEnquiriesCli(["list", "--suspect"], env, io)).toBe(0);
  const row = out.findIndex((l) => l.includes(id));
  expect(row).toBeGreaterThan(0);
  expect(out[row + 1]).toBe("    possible spam: honeypot, urls-in-message");
  expect(out.at(-1)).toMatch(/^1 suspect enquiry in .*enquiries\.sqlite$/);

  const linesBefore = await site.storedLines();
  out.length = 0;
  expect(await runEnquiriesCli(["not-spam", id], env, io)).toBe(0);
  expect(out).toEqual([`enquiry ${id} cleared as not spam (recorded in ${path.join(site.dir, "enquiries.sqlite")})`]);
  expect(await site.storedLines()).toEqual(linesBefore); // the enquiry itself is untouched
  const clearedAt = (await site.receiver.store.list()).enquiries.find((e) => e.id === id)!.clearedAt;
  expect(clearedAt).toEqual(expect.any(String));

  out.length = 0;
  expect(await runEnquiriesCli(["list", "--suspect"], env, io)).toBe(0);
  expect(out[out.findIndex((l) => l.includes(id)) + 1]).toMatch(
    /^ {4}cleared as not spam \d{4}-\d\d-\d\d \d\d:\d\d \(flagged: honeypot, urls-in-message\)$/,
  );
  expect(out.at(-1)).toMatch(/^1 suspect enquiry \(1 cleared as not spam\) in /);

  out.length = 0;
  expect(await runEnquiriesCli(["list", "--suspect", "--json"], env, io)).toBe(0);
  expect(JSON.parse(out[0]!)).toMatchObject({
    id,
    screening: { verdict: "suspect", signals: ["honeypot", "urls-in-message"] },
    clearedAt: expect.any(String),
  });

  // Again: nothing changes. An unknown id, a clean enquiry, no id: refused.
  out.length = 0;
  expect(await runEnquiriesCli(["not-spam", id], env, io)).toBe(0);
  expect(out[0]).toMatch(/already cleared/);
  expect((await site.receiver.store.list()).enquiries.find((e) => e.id === id)!.clearedAt).toBe(clearedAt);
  const clean = (await site.receiver.store.list()).enquiries.find((e) => e.id !== id)!;
  expect(await runEnquiriesCli(["not-spam", clean.id], env, io)).toBe(1);
  expect(err.at(-1)).toBe(`enquiry ${clean.id} was not flagged as possible spam: nothing to clear`);
  expect(await runEnquiriesCli(["not-spam", "no-such-id"], env, io)).toBe(1);
  expect(err.at(-1)).toMatch(/^no enquiry no-such-id in /);
  expect(await runEnquiriesCli(["not-spam"], env, io)).toBe(2);
  expect(await runEnquiriesCli(["list", "extra"], env, io)).toBe(2);
});

test("reviews.jsonl of an earlier version is imported at start; its damaged lines are set aside, not fatal", async () => {
  const id = String((await site.post(suspect)).body.id);
  const review = { id, at: "2026-11-21T10:00:00.000Z", review: "not-spam" };
  fs.writeFileSync(path.join(site.dir, "reviews.jsonl"), `{"id":"x"}\n${JSON.stringify(review)}\n{"torn\n`);
  const store = openStore({ dataDir: site.dir, databaseUrl: undefined, databaseConnections: 1 });
  expect((await store.ready()).imported).toMatchObject({ reviews: 1, unreadableLines: 2 });
  const { enquiries, damagedLines } = await store.list();
  await store.close();
  expect(enquiries.map((e) => [e.id, e.clearedAt])).toEqual([[id, review.at]]);
  expect(damagedLines).toBe(0);
  expect(fs.existsSync(path.join(site.dir, "reviews.jsonl"))).toBe(false);
  const setAside = fs.readdirSync(site.dir).filter((f) => /^reviews\.jsonl\.\d{8}T\d{9}Z\.unreadable$/.test(f));
  expect(setAside).toHaveLength(1);
  expect(fs.readFileSync(path.join(site.dir, setAside[0]!), "utf8")).toBe('{"id":"x"}\n{"torn\n');
});
