/**
 * The operator's commands for the inbox, on each engine: `invite` prints a one-time link on the
 * site's origin whose token is stored only hashed, and e-mails it when mail is set up (a real SMTP
 * server); `people` says who has access; `revoke` ends the access and every session at once;
 * `audit` lists who viewed and exported what (lists, searches and erasures: ./inbox-audit.test.ts).
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { hashSecret } from "../../src/site-service/enquiries/inbox/secrets";
import { startSmtp } from "../support/smtp";
import { ENGINES, engineUnderTest } from "./support/engines";
import { stoppedAfterEach } from "./support/harness";

const stopAfter = stoppedAfterEach();
const NOW = Date.parse("2026-11-20T09:00:00Z");
const HOUR = 3600_000;
const LINK = /^https:\/\/cyrus\.example\/inbox\/welcome#([A-Za-z0-9_-]{43})$/;

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  async function cli(extra: Record<string, string> = {}) {
    const env = { ...(await engine.env()), SITE_URL: "https://cyrus.example/", ...extra };
    const out: string[] = [];
    const err: string[] = [];
    const run = (...args: string[]) =>
      runEnquiriesCli(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) }, () => NOW);
    return { env, out, err, run };
  }

  test("invite prints a one-time link stored hashed; people lists; revoke ends access and sessions", async () => {
    const { env, out, err, run } = await cli();
    expect(await run("invite", "Ana@Cyrus.example", "--name", "Ana Lima")).toBe(0);
    expect(out[0]).toBe(
      "invited Ana Lima <ana@cyrus.example> to the inbox; their link, valid once until 2026-11-21T09:00:00.000Z:",
    );
    const token = LINK.exec(out[1]!)?.[1];
    expect(token).toBeDefined();
    expect(out[2]).toMatch(/^mail is not set up/);

    const store = engine.open(env);
    const at = new Date(NOW).toISOString();
    expect(await store.inbox.invitation(hashSecret(token!), at)).toMatchObject({ email: "ana@cyrus.example" });
    expect(await store.inbox.invitation(token!, at)).toBeUndefined(); // the token itself is not stored

    expect(await run("invite", "not-an-address", "--name", "X")).toBe(2);
    expect(err.at(-1)).toMatch(/^invite needs an e-mail address/);
    expect(await run("invite", "ben@cyrus.example")).toBe(2);
    expect(err.at(-1)).toMatch(/^invite needs the person's name/);

    const ana = (await store.inbox.people(at))[0]!;
    await store.inbox.startSession(hashSecret("s1"), ana.id, at);
    await store.inbox.startSession(hashSecret("s2"), ana.id, at);
    out.length = 0;
    expect(await run("people")).toBe(0);
    expect(out).toEqual([
      "ana@cyrus.example  Ana Lima  invited, link valid until 2026-11-21T09:00:00.000Z; 0 passkeys, 2 sessions",
      expect.stringMatching(/^1 person with access or invited, 0 revoked, in /),
    ]);

    out.length = 0;
    expect(await run("revoke", "ANA@cyrus.example")).toBe(0);
    expect(out).toEqual(["revoked ana@cyrus.example: signed out everywhere (2 sessions ended)"]);
    const limits = { idleMs: 12 * HOUR, maxMs: 7 * 24 * HOUR };
    expect(await store.inbox.session(hashSecret("s1"), at, limits)).toBeUndefined();
    expect(await store.inbox.session(hashSecret("s2"), at, limits)).toBeUndefined();
    expect(await store.inbox.invitation(hashSecret(token!), at)).toBeUndefined();
    out.length = 0;
    expect(await run("people")).toBe(0);
    expect(out[0]).toBe(`ana@cyrus.example  Ana Lima  revoked ${at}`);
    expect(await run("revoke", "nobody@cyrus.example")).toBe(1);
    expect(err.at(-1)).toMatch(/^no one with the address nobody@cyrus\.example in /);

    await store.inbox.recordAudit(ana.id, "view", "enquiry enq-1", at);
    await store.inbox.recordAudit(ana.id, "export", "2 enquiries (status: new)", at);
    out.length = 0;
    expect(await run("audit")).toBe(0);
    expect(out).toEqual([
      `${at}  ana@cyrus.example  view  enquiry enq-1`,
      `${at}  ana@cyrus.example  export  2 enquiries (status: new)`,
      expect.stringMatching(/^2 entries \(lists and searches, views, exports, erasures\) recorded in /),
    ]);
  });
});

describe("invite, with mail set up", () => {
  const engine = engineUnderTest("sqlite");
  afterEach(() => engine.cleanUp());

  test("e-mails the link to the person; a mail server that refuses leaves the printed link and exit code 1", async () => {
    const smtp = stopAfter(await startSmtp());
    const env = {
      ...(await engine.env()),
      SITE_URL: "https://cyrus.example",
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      ENQUIRY_TO: "desk@cyrus.example",
    };
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l) };
    expect(await runEnquiriesCli(["invite", "ana@cyrus.example", "--name", "Ana Lima"], env, io, () => NOW)).toBe(0);
    expect(out.at(-1)).toBe("e-mailed it to ana@cyrus.example");
    expect(smtp.messages.map((m) => m.rcptTo)).toEqual([["ana@cyrus.example"]]);
    const body = smtp.messages[0]!.raw.replace(/=\r?\n/g, "");
    expect(body).toContain(out[1]);
    expect(body).toMatch(/Subject: Your access to the website's enquiry inbox/);

    await smtp.stop();
    out.length = 0;
    expect(await runEnquiriesCli(["invite", "ben@cyrus.example", "--name", "Ben"], env, io, () => NOW)).toBe(1);
    expect(out[1]).toMatch(LINK);
    expect(err.at(-1)).toMatch(/^warning: the e-mail could not be sent \(.*\): pass the link on yourself$/);
  });
});
