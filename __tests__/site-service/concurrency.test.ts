/**
 * Many enquiries at once: every one is stored whole, none is lost, whether they come through one
 * receiver or through two stores on the same file (as two processes would have).
 */
import fs from "node:fs";
import { fingerprint } from "../../src/site-service/enquiries/core/duplicates";
import { openStore } from "../../src/site-service/enquiries/store/open-store";
import { startReceiver, tempDir, validEnquiry, type Harness } from "./support/harness";

let site: Harness;

afterEach(async () => {
  await site?.stop();
});

test("200 concurrent valid enquiries give exactly 200 stored lines with 200 distinct ids", async () => {
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
  const lines = (await site.storedLines()) as Array<{ id: string; name: string }>;
  expect(lines).toHaveLength(200);
  expect(new Set(lines.map((l) => l.id)).size).toBe(200);
  expect(new Set(lines.map((l) => l.id))).toEqual(new Set(answers.map((a) => a.body.id)));
  expect(new Set(lines.map((l) => l.name))).toEqual(new Set(answers.map((_, i) => `Visitor ${i}`)));
});

test("two stores on one SQLite file (as two processes would have) keep every enquiry, and each other's duplicates out", async () => {
  const dir = tempDir();
  const config = { dataDir: dir, databaseUrl: undefined, databaseConnections: 1 };
  const stores = [openStore(config), openStore(config)];
  const long = "x".repeat(4000);
  const since = new Date(Date.now() - 60_000).toISOString();
  const enquiry = (i: number) => ({
    id: `id-${i}`,
    receivedAt: new Date().toISOString(),
    ...validEnquiry,
    message: `${i % 100} ${long}`,
    delivery: "pending" as const,
  });
  // 200 enquiries, each message twice: the one given to the other store second is its duplicate.
  const outcomes = await Promise.all(
    Array.from({ length: 200 }, (_, i) => {
      const e = enquiry(i);
      return stores[i < 100 ? 0 : 1]!.add(e, { key: fingerprint(e), since, ignoreFailed: false });
    }),
  );
  expect(outcomes.filter((o) => o.duplicateOf === undefined)).toHaveLength(100);
  const { enquiries, damagedLines } = await stores[1]!.list();
  expect(enquiries).toHaveLength(100);
  expect(new Set(enquiries.map((e) => e.message.split(" ")[0]))).toHaveProperty("size", 100);
  expect(damagedLines).toBe(0);
  await Promise.all(stores.map((s) => s.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

test("when the folder cannot be written the visitor gets 500 and the allowance is given back", async () => {
  site = await startReceiver({ ENQUIRY_RATE_LIMIT: "1" }, {}, (dataDir) =>
    fs.writeFileSync(dataDir, "a file where the data folder should be"),
  );
  for (let i = 0; i < 2; i += 1) {
    const answer = await site.post(validEnquiry);
    expect(answer.status).toBe(500); // twice: the first failure did not use up the limit of 1
    expect(answer.body).toMatchObject({ error: "storage_failed" });
  }
  expect(site.log.lines.filter((l) => l.startsWith("error: enquiry receiver: could not store"))).toHaveLength(2);
});
