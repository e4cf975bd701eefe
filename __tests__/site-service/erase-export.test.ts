/**
 * `enquiries erase --email` and `enquiries export`, on each engine: erasure removes every enquiry of
 * the address (in any case) with its delivery and outbox records and the inbox's notes and history, and says how many
 * without naming
 * it; export gives CSV a spreadsheet reads safely (./export-formulas.test.ts tries it in every
 * locale's split), or JSON lines.
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { ENGINES, engineUnderTest } from "./support/engines";
import { anotherEnquiry, startReceiver, stoppedAfterEach, validEnquiry } from "./support/harness";
import { newSecret, startWebhookSink } from "../support/webhook-sink";

const stopAfter = stoppedAfterEach();

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  async function withEnquiries() {
    const secret = newSecret();
    const sink = stopAfter(await startWebhookSink(secret, () => ({ status: 500 })));
    const env = { ...(await engine.env()), ENQUIRY_WEBHOOK_URL: sink.url, ENQUIRY_WEBHOOK_SECRET: secret };
    const site = stopAfter(await startReceiver(env));
    const ids: string[] = [];
    for (const body of [
      validEnquiry,
      { ...anotherEnquiry("again"), email: "PRIYA@example.IN" },
      { ...anotherEnquiry("other"), name: '=HYPERLINK("http://x.example")', email: "arun@example.in" },
    ]) {
      ids.push(String((await site.post(body)).body.id));
    }
    await site.receiver.drain(); // each has an outbox row with a failed attempt
    const out: string[] = [];
    const err: string[] = [];
    const run = (...args: string[]) =>
      runEnquiriesCli(
        args,
        { ...env, ENQUIRY_DATA_DIR: site.dir },
        { out: (l) => out.push(l), err: (l) => err.push(l) },
      );
    return { site, ids, out, err, run };
  }

  test("erase --email removes every enquiry of that address, and its delivery records, naming neither", async () => {
    const { site, ids, out, err, run } = await withEnquiries();
    expect((await site.receiver.store.outboxStates()).map((s) => s.enquiryId)).toEqual(ids);
    const { inbox } = site.receiver.store;
    for (const id of ids) {
      await inbox.addNote(id, undefined, `note on ${id}`, new Date().toISOString());
      await inbox.changeWork(id, 1, { status: "answered" }, undefined, new Date().toISOString());
    }
    expect(await run("erase", "--email", " Priya@Example.in ")).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(/^erased 2 enquiries of that address, with their delivery records, from /),
    ]);
    expect(out.join("\n")).not.toMatch(/priya/i);
    expect((await site.receiver.store.list()).enquiries.map((e) => e.id)).toEqual([ids[2]]);
    expect((await site.receiver.store.outboxStates()).map((s) => s.enquiryId)).toEqual([ids[2]]);
    // The inbox's notes and history of the erased ones go too; the other's stay.
    for (const id of ids.slice(0, 2)) {
      expect(await inbox.notes(id)).toEqual([]);
      expect(await inbox.history(id)).toEqual([]);
    }
    expect((await inbox.notes(ids[2]!)).map((n) => n.text)).toEqual([`note on ${ids[2]}`]);
    expect((await inbox.history(ids[2]!)).map((h) => h.what)).toEqual(["note added", "status: new → answered"]);
    expect(await run("erase", "--email", "priya@example.in")).toBe(0);
    expect(out.at(-1)).toMatch(/^erased 0 enquiries/);
    expect(await run("erase")).toBe(2);
    expect(err.at(-1)).toMatch(/^erase needs --email <address>/);
  });

  test("export: CSV with a header, every cell quoted, formulas defused; or JSON lines", async () => {
    const { ids, out, run } = await withEnquiries();
    expect(await run("export")).toBe(0);
    expect(out[0]).toBe(
      '"id","receivedAt","name","phone","email","message","screening","signals","delivery","clearedAt"',
    );
    expect(out).toHaveLength(4);
    // A phone number starting with + would be a formula too: a spreadsheet shows it as text.
    expect(out[3]).toMatch(
      new RegExp(
        `^"${ids[2]}","[^"]+","'=HYPERLINK\\(""http://x\\.example""\\)","'\\+91 44 2345 6789","arun@example\\.in",`,
      ),
    );
    out.length = 0;
    expect(await run("export", "--format", "jsonl")).toBe(0);
    expect(out.map((l) => (JSON.parse(l) as { id: string }).id)).toEqual(ids);
    expect(await run("export", "--format", "xml")).toBe(2);
  });
});
