/**
 * Many enquiries at once: every one is stored as one whole line, none is lost, whether they come
 * through one receiver or through two that share the data folder (as two processes would).
 */
import fs from "node:fs";
import path from "node:path";
import { EnquiryStore } from "../../src/enquiry-receiver/store/store";
import { startReceiver, tempDir, validEnquiry, type Harness } from "./support/harness";

let site: Harness;

afterEach(async () => {
  await site?.stop();
});

test("200 concurrent valid enquiries give exactly 200 parseable lines with 200 distinct ids", async () => {
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1000" });
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      site.post({ ...validEnquiry, name: `Visitor ${i}`, message: `Enquiry number ${i}: ${"சோதனை ".repeat(i % 50)}` }),
    ),
  );
  const elapsed = performance.now() - started;
  console.info(`200 concurrent enquiries answered in ${elapsed.toFixed(0)} ms`);

  expect(answers.map((a) => a.status)).toEqual(Array(200).fill(201));
  const text = fs.readFileSync(path.join(site.dir, "enquiries.jsonl"), "utf8");
  expect(text.endsWith("\n")).toBe(true);
  const lines = text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; name: string });
  expect(lines).toHaveLength(200);
  expect(new Set(lines.map((l) => l.id)).size).toBe(200);
  expect(new Set(lines.map((l) => l.id))).toEqual(new Set(answers.map((a) => a.body.id)));
  expect(new Set(lines.map((l) => l.name))).toEqual(new Set(answers.map((_, i) => `Visitor ${i}`)));
});

test("two writers on the same folder (separate queues and file handles) never mix their lines", async () => {
  const dir = tempDir();
  const stores = [new EnquiryStore(dir), new EnquiryStore(dir)];
  const long = "x".repeat(4000); // lines of several KiB make torn writes likely if writes were split
  await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      stores[i % 2]!.add({
        id: `id-${i}`,
        receivedAt: new Date().toISOString(),
        ...validEnquiry,
        message: `${i} ${long}`,
        delivery: "pending",
      }),
    ),
  );
  const lines = fs.readFileSync(path.join(dir, "enquiries.jsonl"), "utf8").split("\n").filter(Boolean);
  expect(lines).toHaveLength(200);
  expect(new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id)).size).toBe(200);
  const { enquiries, damagedLines } = await stores[0]!.list();
  expect(enquiries).toHaveLength(200);
  expect(damagedLines).toBe(0);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a torn last line (a crash mid-write) is skipped and counted, the rest is still read", async () => {
  const dir = tempDir();
  const store = new EnquiryStore(dir);
  await store.add({ id: "a", receivedAt: new Date().toISOString(), ...validEnquiry, delivery: "pending" });
  fs.appendFileSync(store.enquiriesFile, '{"id":"b","receivedAt":"2026-');
  const { enquiries, damagedLines } = await store.list();
  expect(enquiries.map((e) => e.id)).toEqual(["a"]);
  expect(damagedLines).toBe(1);
  fs.rmSync(dir, { recursive: true, force: true });
});

test("when the folder cannot be written the visitor gets 500 and the allowance is given back", async () => {
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1" });
  fs.writeFileSync(site.dir, "a file where the data folder should be");
  for (let i = 0; i < 2; i += 1) {
    const answer = await site.post(validEnquiry);
    expect(answer.status).toBe(500); // twice: the first failure did not use up the limit of 1
    expect(answer.body).toMatchObject({ error: "storage_failed" });
  }
  expect(site.log.lines.filter((l) => l.startsWith("error: enquiry receiver: could not store"))).toHaveLength(2);
});
