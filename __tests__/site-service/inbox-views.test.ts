/**
 * What the inbox's list and enquiry routes show and record, on each engine: one `view` in the audit
 * per opening of an enquiry, none for the page's own reload after an action (refresh=1), yet one for a
 * "refresh" of an enquiry this session never opened, so sending refresh=1 hides no first look; and
 * the list's previews, which end with "…" when the message goes on.
 */
import { createEnquiryService, jsonLog, type EnquiryService } from "../../src/site-service/service/server";
import { ENGINES, engineUnderTest } from "./support/engines";
import { projectRoot } from "./support/harness";
import { client, enquiry, fill, invited, NOW, ORIGIN, type Call } from "./support/inbox-client";

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  let service: EnquiryService | undefined;
  afterEach(async () => {
    await service?.shutdown("test");
    service = undefined;
    await engine.cleanUp();
  });

  /** The service on a clock the test moves (a second session starts later than the first). */
  async function start() {
    const clock = { now: NOW };
    const env = { ...(await engine.env()), SITE_URL: `${ORIGIN}/`, ENQUIRY_PORT: "0" };
    service = createEnquiryService({
      env,
      log: jsonLog(() => undefined),
      receiverOptions: { now: () => clock.now, mailer: null },
      projectRoot,
    });
    const { port } = await service.listen();
    await fill(service.receiver.store);
    return { clock, env, call: client(port), store: service.receiver.store };
  }

  test("one view per opening: reloads after an action add none; a refresh this session never opened is a view", async () => {
    const { clock, env, call, store } = await start();
    const ana = await invited(call, env, "ana@cyrus.example", "Ana Lima");
    const get = (path: string, cookie = ana.cookie) => call("GET", path, { cookie });
    const views = async () =>
      (await store.inbox.audit()).filter((a) => a.action === "view").map((a) => `${a.at} ${a.subject}`);
    const at = (ms: number) => new Date(ms).toISOString();

    // Opened, then worked on: the page reloads it twice after its actions.
    expect((await get("/inbox/api/enquiries/enq-003")).status).toBe(200);
    clock.now += 1_000;
    expect(
      (await call("POST", "/inbox/api/enquiries/enq-003/notes", { cookie: ana.cookie, body: { text: "hi" } })).status,
    ).toBe(200);
    const reloaded = await get("/inbox/api/enquiries/enq-003?refresh=1");
    expect(reloaded.status).toBe(200);
    expect((reloaded.json.enquiry as { notes: unknown[] }).notes).toHaveLength(1);
    clock.now += 1_000;
    expect((await get("/inbox/api/enquiries/enq-003?refresh=1")).status).toBe(200);
    expect(await views()).toEqual([`${at(NOW)} enquiry enq-003`]);

    // Opened again from the list: another view. A "refresh" of one never opened: a view all the same.
    clock.now += 1_000;
    await get("/inbox/api/enquiries/enq-003");
    await get("/inbox/api/enquiries/enq-004?refresh=1");
    expect(await views()).toEqual([
      `${at(NOW)} enquiry enq-003`,
      `${at(NOW + 3_000)} enquiry enq-003`,
      `${at(NOW + 3_000)} enquiry enq-004`,
    ]);

    // A later session (signed in again) that only "refreshes" enq-003: its first look, recorded.
    clock.now += 60_000;
    const later = await signedInAgain(call, ana.authenticator);
    await get("/inbox/api/enquiries/enq-003?refresh=1", later);
    await get("/inbox/api/enquiries/enq-003?refresh=1", later);
    expect((await views()).slice(3)).toEqual([`${at(NOW + 63_000)} enquiry enq-003`]);
  });

  test("the list's preview: the message's first words; a cut one ends with …", async () => {
    const { env, call, store } = await start();
    const long =
      "We need a regulatory strategy for a class II device in the EU and the US, with a clinical " + "evaluation plan.";
    const word = "x".repeat(300);
    for (const [n, message] of [
      [13, long],
      [14, `  Twelve words exactly, one two three four five six seven eight nine.\n`],
      [15, word],
    ] as const) {
      const e = enquiry(n, { message });
      await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
        { destination: "email", messageId: `msg_${e.id}` },
      ]);
    }
    const ana = await invited(call, env, "ana@cyrus.example", "Ana Lima");
    const list = await call("GET", "/inbox/api/enquiries?limit=4", { cookie: ana.cookie });
    const previews = (list.json.enquiries as Array<{ preview: string }>).map((e) => e.preview);
    expect(previews).toEqual([
      `${"x".repeat(120)}…`,
      "Twelve words exactly, one two three four five six seven eight nine.",
      "We need a regulatory strategy for a class II device in the…",
      "A phase 0 study, enquiry number 12.",
    ]);
  });
});

/** A second session of the person, by their passkey: its cookie. */
async function signedInAgain(call: Call, authenticator: { assert: (o: never, origin: string) => object }) {
  const options = await call("POST", "/inbox/api/session/sign-in-options", { body: {} });
  const request = (options.json as { options: never }).options;
  const signed = await call("POST", "/inbox/api/session/sign-in", {
    body: { response: authenticator.assert(request, ORIGIN) },
  });
  expect(signed.status).toBe(200);
  return (signed.headers.get("set-cookie") ?? "").split(";")[0]!;
}
