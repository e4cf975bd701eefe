/**
 * Two enquiry services on one PostgreSQL, each with its own pool, as two instances behind one nginx
 * would be: a session made on one works on the other; the list, an enquiry and the counts read the
 * same on both after changes made on each; a change made on one with a version the other already
 * moved gets 409 and nothing of it is kept; revoking the person ends their session on both at once.
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { createEnquiryService, jsonLog, type EnquiryService } from "../../src/site-service/service/server";
import { engineUnderTest } from "./support/engines";
import { projectRoot } from "./support/harness";
import { client, fill, invited, NOW, ORIGIN, type Call } from "./support/inbox-client";
import { softwareAuthenticator } from "./support/software-authenticator";

describe("the inbox on two service instances over one PostgreSQL", () => {
  const engine = engineUnderTest("postgres");
  const services: EnquiryService[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.shutdown("test");
    await engine.cleanUp();
  });

  /** Two services on the store, each with its own pool: their API clients. */
  async function twoServices() {
    const env = { ...(await engine.env()), SITE_URL: ORIGIN, ENQUIRY_PORT: "0" };
    const start = async () => {
      const s = createEnquiryService({
        env,
        log: jsonLog(() => undefined),
        receiverOptions: { now: () => NOW, mailer: null },
        projectRoot,
      });
      services.push(s);
      return client((await s.listen()).port);
    };
    const [a, b] = [await start(), await start()];
    return { env, a, b };
  }

  test("sessions, list, counts, versions and revoke are the same on both", async () => {
    const { env, a, b } = await twoServices();
    expect(services[0]!.receiver.store).not.toBe(services[1]!.receiver.store);
    await fill(services[0]!.receiver.store, 30);

    // Made on a, used on b.
    const ana = await invited(a, env, "ana@cyrus.example", "Ana");
    const ben = await invited(b, env, "ben@cyrus.example", "Ben");
    expect((await b("GET", "/inbox/api/me", { cookie: ana.cookie })).json.person).toMatchObject({ id: ana.id });
    expect((await a("GET", "/inbox/api/me", { cookie: ben.cookie })).json.person).toMatchObject({ id: ben.id });

    const work = (call: Call, who: { cookie: string }, id: string, body: unknown) =>
      call("POST", `/inbox/api/enquiries/${id}/work`, { cookie: who.cookie, body });
    expect((await work(a, ana, "enq-030", { version: 1, status: "in progress", ownerId: ana.id })).status).toBe(200);
    expect((await work(b, ben, "enq-029", { version: 1, status: "spam" })).status).toBe(200);
    expect((await work(b, ben, "enq-030", { version: 2, status: "answered" })).status).toBe(200);
    // Ana, on the version she had: b moved it on, so a refuses it, and it stays as b left it.
    const stale = await work(a, ana, "enq-030", { version: 2, status: "closed" });
    expect(stale.status).toBe(409);
    expect(stale.json.work).toMatchObject({ status: "answered", ownerId: ana.id, version: 3 });
    const noted = await b("POST", "/inbox/api/enquiries/enq-030/notes", { cookie: ben.cookie, body: { text: "rang" } });
    expect(noted.status).toBe(200);

    // Both read the same: every page of the list, the counts, the enquiry with its history.
    const everything = async (call: Call, who: { cookie: string }) => {
      const pages: unknown[] = [];
      let next: string | undefined;
      for (let page = 0; page < 10; page += 1) {
        const r = await call("GET", `/inbox/api/enquiries?limit=7${next ? `&after=${next}` : ""}`, {
          cookie: who.cookie,
        });
        pages.push(r.json.enquiries);
        next = r.json.next as string | undefined;
        if (!next) break;
      }
      const counts = (await call("GET", "/inbox/api/counts", { cookie: who.cookie })).json;
      const one = (await call("GET", "/inbox/api/enquiries/enq-030", { cookie: who.cookie })).json;
      return { pages, counts, one };
    };
    const seenOnA = await everything(a, ana);
    expect(seenOnA.pages).toHaveLength(5);
    expect(seenOnA.counts).toEqual({
      byStatus: { new: 28, "in progress": 0, answered: 1, closed: 0, spam: 1 },
      flagged: 0,
    });
    expect(seenOnA.one.enquiry).toMatchObject({
      work: { status: "answered", version: 3 },
      notes: [{ by: "Ben", text: "rang" }],
      history: [
        { by: "Ana", what: "status: new → in progress" },
        { by: "Ana", what: "owner: Ana" },
        { by: "Ben", what: "status: in progress → answered" },
        { by: "Ben", what: "note added" },
      ],
    });
    expect(await everything(b, ana)).toEqual(seenOnA);
    expect(await everything(b, ben)).toEqual(await everything(a, ben));

    // Revoked (the operator's command, on the server): Ana's session ends on both; Ben's stays.
    const out: string[] = [];
    const revoke = ["revoke", "ana@cyrus.example"];
    expect(await runEnquiriesCli(revoke, env, { out: (l) => out.push(l), err: () => undefined }, () => NOW)).toBe(0);
    expect(out[0]).toMatch(/signed out everywhere \(1 session ended\)/);
    for (const call of [a, b]) {
      expect((await call("GET", "/inbox/api/enquiries", { cookie: ana.cookie })).status).toBe(401);
      expect((await call("GET", "/inbox/api/counts", { cookie: ben.cookie })).status).toBe(200);
    }
  });

  test("a ceremony begun on one ends on the other; a session of one works on the other; versions hold across them", async () => {
    const { env, a, b } = await twoServices();
    await fill(services[0]!.receiver.store);
    const out: string[] = [];
    await runEnquiriesCli(
      ["invite", "ana@cyrus.example", "--name", "Ana"],
      env,
      { out: (l) => out.push(l), err: () => undefined },
      () => NOW,
    );
    const token = out[1]!.split("#")[1]!;
    const authenticator = softwareAuthenticator();
    const creation = (await a("POST", "/inbox/api/session/welcome-options", { body: { token } })).json.options as {
      challenge: string;
      rp: { id: string };
    };
    const registered = await b("POST", "/inbox/api/session/welcome", {
      body: { token, response: authenticator.register(creation, ORIGIN) },
    });
    expect(registered.status).toBe(200);
    const cookie = (registered.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect((await a("GET", "/inbox/api/me", { cookie })).status).toBe(200);

    const request = (await b("POST", "/inbox/api/session/sign-in-options", { body: {} })).json.options as {
      challenge: string;
      rpId: string;
    };
    const signedIn = await a("POST", "/inbox/api/session/sign-in", {
      body: { response: authenticator.assert(request, ORIGIN) },
    });
    expect(signedIn.status).toBe(200);

    expect(
      (await a("POST", "/inbox/api/enquiries/enq-001/work", { cookie, body: { version: 1, status: "answered" } }))
        .status,
    ).toBe(200);
    const stale = await b("POST", "/inbox/api/enquiries/enq-001/work", {
      cookie,
      body: { version: 1, status: "spam" },
    });
    expect([stale.status, (stale.json.work as { status: string }).status]).toEqual([409, "answered"]);
    expect((await b("GET", "/inbox/api/counts", { cookie })).json).toMatchObject({
      byStatus: { answered: 1, new: 11 },
    });

    // Signed out on one: refused on the other at once.
    expect((await b("POST", "/inbox/api/sign-out", { cookie })).status).toBe(200);
    expect((await a("GET", "/inbox/api/me", { cookie })).status).toBe(401);
  });
});
