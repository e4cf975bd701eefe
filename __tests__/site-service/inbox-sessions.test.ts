/**
 * A session starts only for a person still allowed, and a revoke ends every session of before for
 * good, on each engine: a revoke between the passkey's check and the session's start leaves no
 * session (401, no cookie); invited again, the person's earlier sessions stay dead, whichever way
 * one was started (an earlier release's instance, which checks nothing, included). On PostgreSQL, a
 * sign-in that races a revoke for real (held mid-statement by a row lock) ends with no session.
 */
import pg from "pg";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { hashSecret } from "../../src/site-service/enquiries/inbox/secrets";
import { settingsEngine } from "../../src/site-service/enquiries/store/open-store";
import { ENGINES, engineUnderTest } from "./support/engines";
import { serviceUnderTest } from "./support/service-under-test";
import { client, fill, invited, NOW, ORIGIN, type Call } from "./support/inbox-client";
import type { SoftwareAuthenticator } from "./support/software-authenticator";

const HOUR = 3600_000;
const at = (ms: number) => new Date(NOW + ms).toISOString();
const LIMITS = { idleMs: 12 * HOUR, maxMs: 7 * 24 * HOUR };

async function signIn(call: Call, authenticator: SoftwareAuthenticator) {
  const options = await call("POST", "/inbox/api/session/sign-in-options", { body: {} });
  const request = (options.json as { options: { challenge: string; rpId: string } }).options;
  return call("POST", "/inbox/api/session/sign-in", { body: { response: authenticator.assert(request, ORIGIN) } });
}

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  const start = serviceUnderTest(engine);
  afterEach(() => {
    jest.restoreAllMocks();
  });

  test("revoked between the passkey's check and the session: 401 and no session; invited again, no cookie of before works", async () => {
    const lines: string[] = [];
    const { service, env, port } = await start({ log: (line) => void lines.push(line) });
    const call = client(port);
    const { inbox } = service.receiver.store;
    await fill(service.receiver.store);
    const ana = await invited(call, env, "ana@cyrus.example", "Ana Lima");
    const signedIn = await signIn(call, ana.authenticator);
    expect(signedIn.status).toBe(200);
    const before = [ana.cookie, (signedIn.headers.get("set-cookie") ?? "").split(";")[0]!];
    const cli = (...args: string[]) =>
      runEnquiriesCli(args, env, { out: () => undefined, err: () => undefined }, () => NOW);

    // The operator revokes Ana just after her passkey was checked, before her session is started.
    const usePasskey = inbox.usePasskey.bind(inbox);
    jest.spyOn(inbox, "usePasskey").mockImplementationOnce(async (...args) => {
      const used = await usePasskey(...args);
      expect(await cli("revoke", "ana@cyrus.example")).toBe(0);
      return used;
    });
    const raced = await signIn(call, ana.authenticator);
    expect([raced.status, raced.json]).toEqual([
      401,
      { error: "access_ended", message: "Your access to the inbox has ended." },
    ]);
    expect(raced.headers.get("set-cookie")).toBeNull();
    expect(await inbox.people(at(0))).toEqual([expect.objectContaining({ revokedAt: at(0), sessions: 0 })]);
    expect(lines.filter((l) => l.includes('"reason":"access_ended"'))).toHaveLength(1);

    // Invited again, with a new passkey: signed in anew; no session of before comes back.
    const again = await invited(call, env, "ana@cyrus.example", "Ana Lima");
    expect((await call("GET", "/inbox/api/me", { cookie: again.cookie })).status).toBe(200);
    for (const cookie of before) expect((await call("GET", "/inbox/api/me", { cookie })).status).toBe(401);
  });

  test("a session started after a revoke by an instance that checks nothing stays dead once the person is invited again", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    const ana = await store.inbox.invite("ana@cyrus.example", "Ana Lima", "inv-1", at(0), at(24 * HOUR));
    expect(await store.inbox.startSession(hashSecret("s1"), ana.id, at(0))).toBe(true);
    expect(await store.inbox.revoke("ana@cyrus.example", at(HOUR))).toEqual({ sessions: 1, alreadyRevoked: false });
    expect(await store.inbox.startSession(hashSecret("s2"), ana.id, at(HOUR))).toBe(false);

    // As the release before this one starts a session (no check, no generation): after the revoke.
    const raw = settingsEngine(
      { dataDir: env.ENQUIRY_DATA_DIR, databaseUrl: env.DATABASE_URL, databaseConnections: 1 },
      { log: { warn: () => undefined } },
    );
    await raw.open();
    await raw.run("INSERT INTO sessions (id_hash, person_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)", [
      hashSecret("late"),
      ana.id,
      at(HOUR),
    ]);
    await raw.close();
    expect(await store.inbox.session(hashSecret("late"), at(HOUR), LIMITS)).toBeUndefined();

    await store.inbox.invite("ana@cyrus.example", "Ana Lima", "inv-2", at(2 * HOUR), at(26 * HOUR));
    for (const id of ["s1", "s2", "late"])
      expect([id, await store.inbox.session(hashSecret(id), at(2 * HOUR), LIMITS)]).toEqual([id, undefined]);
    expect(await store.inbox.startSession(hashSecret("s3"), ana.id, at(2 * HOUR))).toBe(true);
    expect(await store.inbox.session(hashSecret("s3"), at(2 * HOUR), LIMITS)).toMatchObject({ id: ana.id });
  });
});

describe("on postgres, a sign-in racing a revoke", () => {
  const engine = engineUnderTest("postgres");
  afterEach(() => engine.cleanUp());

  test("held mid-statement while the revoke runs: the revoke waits for it and ends its session; none is left", async () => {
    const env = await engine.env();
    const store = engine.open(env);
    const ana = await store.inbox.invite("ana@cyrus.example", "Ana Lima", "inv-1", at(0), at(24 * HOUR));
    const holder = new pg.Client({ connectionString: env.DATABASE_URL });
    await holder.connect();
    // Watches the others' waits from outside any transaction (a transaction sees one snapshot of them).
    const watcher = new pg.Client({ connectionString: env.DATABASE_URL });
    await watcher.connect();
    try {
      // Another transaction holds the new session's key: the sign-in's INSERT, its person read,
      // waits on it mid-statement, as a slow commit would keep it.
      await holder.query("BEGIN");
      await holder.query(
        "INSERT INTO sessions (id_hash, person_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)",
        [hashSecret("raced"), ana.id, at(0)],
      );
      const starting = store.inbox.startSession(hashSecret("raced"), ana.id, at(0));
      const waiting = async (query: string) => {
        for (let i = 0; i < 200; i += 1) {
          const { rows } = await watcher.query<{ n: string }>(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1",
            [`${query}%`],
          );
          if (Number(rows[0]!.n) > 0) return true;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        return false;
      };
      expect(await waiting("INSERT INTO sessions")).toBe(true);
      const revoking = store.inbox.revoke("ana@cyrus.example", at(HOUR));
      // The revoke waits for the sign-in (its person's row is read FOR SHARE), not the other way round.
      expect(await waiting("UPDATE people")).toBe(true);
      await holder.query("ROLLBACK");
      expect(await starting).toBe(true);
      expect(await revoking).toEqual({ sessions: 1, alreadyRevoked: false });
    } finally {
      await holder.end();
      await watcher.end();
    }
    expect(await store.inbox.session(hashSecret("raced"), at(HOUR), LIMITS)).toBeUndefined();
    expect(await store.inbox.people(at(HOUR))).toEqual([expect.objectContaining({ sessions: 0 })]);
    await store.inbox.invite("ana@cyrus.example", "Ana Lima", "inv-2", at(2 * HOUR), at(26 * HOUR));
    expect(await store.inbox.session(hashSecret("raced"), at(2 * HOUR), LIMITS)).toBeUndefined();
  });
});
