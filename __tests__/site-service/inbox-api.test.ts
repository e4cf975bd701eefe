/**
 * The inbox's API in the enquiry service, on each engine, signed in with a passkey in software
 * (./support/software-authenticator): an invitation's link creates a passkey once; the passkey
 * signs in later; every route without a session, with a made-up one and with a revoked one answers
 * 401 and nothing else (the list comes from the service's own routes, so a new one is covered);
 * a change from another origin or without X-Inbox is refused; a stale version gets 409 and the
 * current state; search, filters, paging, the CSV export (formulas defused) and the audit; failed
 * sign-ins are limited and logged without personal data.
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { SIGN_IN_FAILURES } from "../../src/site-service/enquiries/inbox/inbox-http";
import type { EnquiryStore } from "../../src/site-service/enquiries/store/store";
import { createEnquiryService, jsonLog, type EnquiryService } from "../../src/site-service/service/server";
import { ENGINES, engineUnderTest } from "./support/engines";
import { projectRoot } from "./support/harness";
import { client, enquiry, NOW, ORIGIN, type Call, type Reply } from "./support/inbox-client";
import { softwareAuthenticator, type SoftwareAuthenticator } from "./support/software-authenticator";

async function fill(store: EnquiryStore): Promise<void> {
  for (let n = 1; n <= 12; n += 1) {
    const e =
      n === 7
        ? enquiry(n, { name: '=HYPERLINK("http://x.example","click")', message: "Oncology trial in Pune" })
        : n === 9
          ? enquiry(n, { screening: { verdict: "suspect", signals: ["url-in-name"] } })
          : enquiry(n);
    await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, [
      { destination: "email", messageId: `msg_${e.id}` },
    ]);
  }
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  let service: EnquiryService | undefined;
  afterEach(async () => {
    await service?.shutdown("test");
    service = undefined;
    await engine.cleanUp();
  });

  async function start() {
    const env = { ...(await engine.env()), SITE_URL: `${ORIGIN}/`, ENQUIRY_PORT: "0" };
    const lines: string[] = [];
    service = createEnquiryService({
      env,
      log: jsonLog((line) => void lines.push(line)),
      receiverOptions: { now: () => NOW, mailer: null },
      projectRoot,
    });
    const { port } = await service.listen();
    await fill(service.receiver.store);
    const out: string[] = [];
    const cli = (...args: string[]) =>
      runEnquiriesCli(args, env, { out: (l) => out.push(l), err: () => undefined }, () => NOW);
    return { call: client(port), lines, out, cli, store: service.receiver.store, service };
  }

  /** Invites a person with the CLI and creates their passkey through the API; the session's cookie. */
  async function invited(call: Call, cli: (...args: string[]) => Promise<number>, out: string[], email: string) {
    out.length = 0;
    expect(await cli("invite", email, "--name", `Name of ${email}`)).toBe(0);
    const token = out[1]!.split("#")[1]!;
    const options = await call("POST", "/inbox/api/session/welcome-options", { body: { token } });
    expect(options.status).toBe(200);
    const authenticator = softwareAuthenticator();
    const { options: creation } = options.json as { options: { challenge: string; rp: { id: string } } };
    expect(creation.rp.id).toBe("cyrus.example");
    const registered = await call("POST", "/inbox/api/session/welcome", {
      body: { token, response: authenticator.register(creation, ORIGIN) },
    });
    expect(registered.status).toBe(200);
    return { token, authenticator, cookie: sessionCookie(registered) };
  }

  async function signIn(call: Call, authenticator: SoftwareAuthenticator, origin = ORIGIN) {
    const options = await call("POST", "/inbox/api/session/sign-in-options", { body: {} });
    const request = (options.json as { options: { challenge: string; rpId: string } }).options;
    return call("POST", "/inbox/api/session/sign-in", { body: { response: authenticator.assert(request, origin) } });
  }

  test("the passkey ceremonies: an invitation makes a passkey once; it signs in; sessions end on sign-out and revoke; invited again, only the new passkey", async () => {
    const { call, cli, out, lines } = await start();
    const { token, authenticator, cookie } = await invited(call, cli, out, "ana@cyrus.example");
    expect((await call("GET", "/inbox/api/me", { cookie })).json).toEqual({
      person: { id: expect.any(Number), name: "Name of ana@cyrus.example", email: "ana@cyrus.example", signature: "" },
    });
    // The link works once.
    const again = await call("POST", "/inbox/api/session/welcome-options", { body: { token } });
    expect(again.status).toBe(410);

    const signedIn = await signIn(call, authenticator);
    expect(signedIn.status).toBe(200);
    const second = sessionCookie(signedIn);
    expect(signedIn.headers.get("set-cookie")).toMatch(
      /^__Host-inbox-session=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Strict; Max-Age=604800$/,
    );
    expect((await call("GET", "/inbox/api/me", { cookie: second })).status).toBe(200);

    // An assertion made for another origin, an unknown passkey, a replayed answer: refused.
    expect((await signIn(call, authenticator, "https://evil.example")).status).toBe(401);
    expect((await signIn(call, softwareAuthenticator())).status).toBe(401);
    const options = await call("POST", "/inbox/api/session/sign-in-options", { body: {} });
    const request = (options.json as { options: { challenge: string; rpId: string } }).options;
    const answer = authenticator.assert(request, ORIGIN);
    expect((await call("POST", "/inbox/api/session/sign-in", { body: { response: answer } })).status).toBe(200);
    expect((await call("POST", "/inbox/api/session/sign-in", { body: { response: answer } })).status).toBe(401);
    const unverified = await call("POST", "/inbox/api/session/sign-in-options", { body: {} });
    const uvRequest = (unverified.json as { options: { challenge: string; rpId: string } }).options;
    const noUv = authenticator.assert(uvRequest, ORIGIN, { verified: false });
    expect((await call("POST", "/inbox/api/session/sign-in", { body: { response: noUv } })).status).toBe(401);
    const failures = lines.filter((l) => l.includes("inbox sign-in failed"));
    expect(failures).toHaveLength(5); // the used link, and the four above
    expect(failures.join("\n")).not.toMatch(/ana@|cyrus\.example|127\.0\.0\.1|enq-|Name of/);

    // Signed out: that session is gone, the other stays; revoked: every one is gone at once.
    expect((await call("POST", "/inbox/api/sign-out", { cookie: second })).status).toBe(200);
    expect((await call("GET", "/inbox/api/me", { cookie: second })).status).toBe(401);
    expect((await call("GET", "/inbox/api/me", { cookie })).status).toBe(200);
    expect(await cli("revoke", "ana@cyrus.example")).toBe(0);
    expect((await call("GET", "/inbox/api/me", { cookie })).status).toBe(401);
    expect((await signIn(call, authenticator)).status).toBe(401);
    // Invited again (a lost device): the new link's passkey signs in, the old one never again.
    const renewed = await invited(call, cli, out, "ana@cyrus.example");
    expect((await signIn(call, renewed.authenticator)).status).toBe(200);
    expect((await signIn(call, authenticator)).status).toBe(401);
  });

  test("every route: 401 without a session, with a made-up or a revoked one; 403 from another origin or without X-Inbox", async () => {
    const { call, cli, out, service: running } = await start();
    const { cookie } = await invited(call, cli, out, "ana@cyrus.example");
    const routes = running.inbox.routes;
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const pathOf = (path: string) => path.replace(":id", "enq-001");
    const body = { version: 1, status: "closed", text: "x", destination: "email", confirm: 1 };
    const anonymous = [undefined, "__Host-inbox-session=made-up", "other=1"];
    for (const { method, path } of [...routes, { method: "GET", path: "/inbox/api/no-such-route" }]) {
      for (const jar of anonymous) {
        const r = await call(method, pathOf(path), { cookie: jar, body: method === "POST" ? body : undefined });
        expect([method, path, r.status, r.json]).toEqual([
          method,
          path,
          401,
          { error: "unauthorised", message: "Sign in to the inbox." },
        ]);
        expectPrivate(r);
      }
    }
    for (const { method, path } of routes.filter((r) => r.method === "POST")) {
      for (const headers of [{ origin: "https://evil.example" }, { origin: null }, { xInbox: null }, { xInbox: "0" }]) {
        const r = await call(method, pathOf(path), { cookie, body, ...headers });
        expect([method, path, r.status]).toEqual([method, path, 403]);
        expectPrivate(r);
      }
    }
    expect((await call("GET", "/inbox/api/enquiries/enq-001", { cookie })).json).toMatchObject({
      enquiry: { work: { status: "new", version: 1 } },
    });
    expect(await cli("revoke", "ana@cyrus.example")).toBe(0);
    for (const { method, path } of routes) {
      const r = await call(method, pathOf(path), { cookie, body: method === "POST" ? body : undefined });
      expect([method, path, r.status]).toEqual([method, path, 401]);
    }
    // Nothing of the refused requests changed anything.
    expect(await running.receiver.store.inbox.work("enq-001")).toMatchObject({ status: "new", version: 1 });
  });

  test("working enquiries: list, filters, search, paging, a stale version's 409, notes, counts, export and audit", async () => {
    const { call, cli, out, store } = await start();
    const ana = await invited(call, cli, out, "ana@cyrus.example");
    const ben = await invited(call, cli, out, "ben@cyrus.example");
    const get = (path: string, who = ana) => call("GET", path, { cookie: who.cookie });
    const post = (path: string, body: unknown, who = ana) => call("POST", path, { cookie: who.cookie, body });

    const first = await get("/inbox/api/enquiries?limit=5");
    expectPrivate(first);
    const ids = (r: Reply) => (r.json.enquiries as Array<{ id: string }>).map((e) => e.id);
    expect(ids(first)).toEqual(["enq-012", "enq-011", "enq-010", "enq-009", "enq-008"]);
    const seen = [...ids(first)];
    let next = first.json.next as string | undefined;
    for (let page = 0; next && page < 5; page += 1) {
      const r = await get(`/inbox/api/enquiries?limit=5&after=${next}`);
      seen.push(...ids(r));
      next = r.json.next as string | undefined;
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, i) => `enq-${String(12 - i).padStart(3, "0")}`));
    expect((first.json.enquiries as object[])[0]).toEqual({
      id: "enq-012",
      receivedAt: new Date(NOW - 88 * 60_000).toISOString(),
      name: "Person 12",
      emailDomain: "sponsor0.example",
      preview: "A phase 0 study, enquiry number 12.",
      status: "new",
      version: 1,
      screening: "clean",
      flagged: false,
    });

    // Search over name, e-mail and message, any case, every word.
    expect(ids(await get("/inbox/api/enquiries?q=PUNE%20oncology"))).toEqual(["enq-007"]);
    expect(ids(await get("/inbox/api/enquiries?q=person5%40"))).toEqual(["enq-005"]);
    expect(ids(await get("/inbox/api/enquiries?q=100%25"))).toEqual([]);
    expect(ids(await get("/inbox/api/enquiries?flagged=true"))).toEqual(["enq-009"]);
    expect(
      ids(
        await get(
          `/inbox/api/enquiries?from=${new Date(NOW - 90 * 60_000).toISOString()}&to=${new Date(NOW - 88 * 60_000).toISOString()}`,
        ),
      ),
    ).toEqual(["enq-011", "enq-010"]);
    expect((await get("/inbox/api/enquiries?status=bogus")).status).toBe(400);

    // Ana takes enq-003; Ben, on the page he loaded before, tries to close it: 409 with what it is now.
    const people = (await get("/inbox/api/people")).json.people as Array<{ id: number; name: string }>;
    const anaId = people.find((p) => p.name.includes("ana@"))!.id;
    const took = await post("/inbox/api/enquiries/enq-003/work", { version: 1, status: "in progress", ownerId: anaId });
    expect(took.json).toEqual({ work: { enquiryId: "enq-003", status: "in progress", ownerId: anaId, version: 2 } });
    const stale = await post("/inbox/api/enquiries/enq-003/work", { version: 1, status: "closed" }, ben);
    expect(stale.status).toBe(409);
    expect(stale.json.work).toEqual({ enquiryId: "enq-003", status: "in progress", ownerId: anaId, version: 2 });
    expect(
      (await post("/inbox/api/enquiries/enq-003/notes", { text: "<script>alert(1)</script> called" })).status,
    ).toBe(200);
    expect((await post("/inbox/api/enquiries/enq-003/work", { version: 2, status: "answered" })).status).toBe(200);
    expect((await post("/inbox/api/enquiries/enq-003/work", { version: 3, ownerId: 99_999 })).status).toBe(400);
    expect(ids(await get(`/inbox/api/enquiries?owner=${anaId}`))).toEqual(["enq-003"]);
    expect(ids(await get("/inbox/api/enquiries?status=answered"))).toEqual(["enq-003"]);
    const one = await get("/inbox/api/enquiries/enq-003");
    expect(one.json.enquiry).toMatchObject({
      fields: { name: "Person 3", email: "person3@sponsor0.example" },
      outbox: [{ destination: "email" }],
      work: { status: "answered", version: 3, owner: { id: anaId } },
      notes: [{ by: "Name of ana@cyrus.example", text: "<script>alert(1)</script> called" }],
      history: [
        { by: "Name of ana@cyrus.example", what: "status: new → in progress" },
        { by: "Name of ana@cyrus.example", what: "owner: Name of ana@cyrus.example" },
        { by: "Name of ana@cyrus.example", what: "note added" },
        { by: "Name of ana@cyrus.example", what: "status: in progress → answered" },
      ],
    });
    expect((await get("/inbox/api/enquiries/no-such")).status).toBe(404);
    expect((await get("/inbox/api/counts")).json).toEqual({
      byStatus: { new: 11, "in progress": 0, answered: 1, closed: 0, spam: 0 },
      flagged: 1,
    });
    const times = (await get("/inbox/api/answer-times")).json.periods as Array<{
      days: number;
      answered: number;
      medianMs: number;
    }>;
    expect(times).toEqual([
      { days: 30, answered: 1, medianMs: 97 * 60_000 },
      { days: 90, answered: 1, medianMs: 97 * 60_000 },
    ]);

    // Not spam, as `enquiries -- not-spam` records it; the flagged filter then leaves it out.
    expect((await post("/inbox/api/enquiries/enq-009/not-spam", {})).status).toBe(200);
    expect(ids(await get("/inbox/api/enquiries?flagged=true"))).toEqual([]);
    expect((await store.list()).enquiries.find((e) => e.id === "enq-009")?.clearedAt).toBeDefined();

    // The export: what the filter shows, formulas defused; recorded in the audit without the search words.
    const csv = await get("/inbox/api/export.csv?q=pune");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expectPrivate(csv);
    const rows = csv.text.trim().split("\r\n");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toContain(`"'=HYPERLINK(""http://x.example"",""click"")"`);
    out.length = 0;
    expect(await cli("audit")).toBe(0);
    // (Each list request is there too: ./inbox-audit.test.ts.)
    const audited = out.slice(0, -1).map((l) => l.split("  ").slice(1).join("  "));
    expect(audited.filter((l) => !l.includes("  list  "))).toEqual([
      "ana@cyrus.example  view  enquiry enq-003",
      "ana@cyrus.example  export  1 enquiries (a search)",
    ]);

    // Erasure: confirmed with how many go; notes and history go with them.
    const ask = await post("/inbox/api/enquiries/enq-003/erase", {});
    expect(ask.json).toMatchObject({ error: "confirm", count: 1 });
    expect((await post("/inbox/api/enquiries/enq-003/erase", { confirm: 1 })).json).toEqual({ erased: 1 });
    expect((await get("/inbox/api/enquiries/enq-003")).status).toBe(404);
    expect(await store.inbox.history("enq-003")).toEqual([]);
  });

  test("the change mark the pages poll: moves with a new enquiry, a change of work, a note, a history line and an erasure; not with a view", async () => {
    const { call, cli, out, store } = await start();
    const ana = await invited(call, cli, out, "ana@cyrus.example");
    const mark = async () => {
      const r = await call("GET", "/inbox/api/changes", { cookie: ana.cookie });
      expect(r.status).toBe(200);
      expectPrivate(r);
      expect(typeof r.json.mark).toBe("string");
      return r.json.mark as string;
    };
    const post = (path: string, body: unknown) => call("POST", path, { cookie: ana.cookie, body });
    const marks = [await mark()];
    const expectMoved = async () => {
      const now = await mark();
      expect(marks).not.toContain(now);
      marks.push(now);
    };
    // Reading changes nothing: the same mark (so the pages do not reload for nothing).
    expect((await call("GET", "/inbox/api/enquiries/enq-004", { cookie: ana.cookie })).status).toBe(200);
    expect(await mark()).toBe(marks[0]);
    const e = enquiry(40);
    await store.add(e, { key: e.id, since: e.receivedAt, ignoreFailed: false }, []);
    await expectMoved();
    expect((await post("/inbox/api/enquiries/enq-004/work", { version: 1, status: "in progress" })).status).toBe(200);
    await expectMoved();
    expect((await post("/inbox/api/enquiries/enq-004/notes", { text: "called back" })).status).toBe(200);
    await expectMoved();
    expect((await post("/inbox/api/enquiries/enq-009/not-spam", {})).status).toBe(200);
    await expectMoved();
    // Erasing an older enquiry (neither the newest nor the last history line) moves it too.
    expect((await post("/inbox/api/enquiries/enq-002/erase", { confirm: 1 })).status).toBe(200);
    await expectMoved();
    // Without a session: 401, no mark (the table-driven test above covers every route too).
    const anon = await call("GET", "/inbox/api/changes");
    expect(anon.status).toBe(401);
    expect(anon.json.mark).toBeUndefined();
  });

  test("failed sign-ins are limited per client: once past the limit, 429 before anything is checked", async () => {
    const { call } = await start();
    const stranger = softwareAuthenticator();
    for (let i = 0; i < SIGN_IN_FAILURES.limit; i += 1) expect((await signIn(call, stranger)).status).toBe(401);
    const limited = await call("POST", "/inbox/api/session/sign-in-options", { body: {} });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

function sessionCookie(reply: Reply): string {
  const set = reply.headers.get("set-cookie") ?? "";
  return set.split(";")[0]!;
}

function expectPrivate(reply: Reply): void {
  expect(reply.headers.get("cache-control")).toBe("no-store");
  expect(reply.headers.get("x-robots-tag")).toBe("noindex");
  expect(reply.headers.get("referrer-policy")).toBe("no-referrer");
}
