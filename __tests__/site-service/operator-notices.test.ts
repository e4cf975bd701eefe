/**
 * The operator's notices (`enquiries notify-operator`, deploy/server/doctor's e-mail) are kept in the
 * store until sent, on each engine, with a real SMTP server on loopback that is down (nothing on its
 * port: the connection is refused) and then back on the same port. A notice the mail server refused
 * is stored (exit 0, the line says it will be retried and by what) and `status` shows it; once the
 * server is back, `retry` and the service's sender send it, exactly once, with its subject, text and
 * X-Operator-Notice header, even with two senders at once; a notice whose schedule ended is given up
 * loudly and fails `status`; the same notice while one is due is kept once; sent ones go after 90
 * days; a store that cannot keep it does not keep the notice from being sent now.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createMailer } from "../../src/site-service/enquiries/mail/mailer";
import { receiverOutbox } from "../../src/site-service/enquiries/outbox/receiver-outbox";
import { settingsEngine } from "../../src/site-service/enquiries/store/open-store";
import { parseMail } from "../support/mail";
import { freePort } from "../support/serve";
import { startSmtp } from "../support/smtp";
import { ENGINES, engineUnderTest } from "./support/engines";
import { memoryLog, projectRoot, stoppedAfterEach, tempDir } from "./support/harness";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-11-20T09:00:00Z");
const SUBJECT = "Website server web1: doctor found 1 problem(s)";
const TEXT = "doctor found 1 problem(s) on web1 at 2026-11-20 09:00 UTC:\n\nPROBLEM: the outbox — do this\n";
const stopAfter = stoppedAfterEach();

type Env = Record<string, string | undefined>;

async function cli(args: string[], env: Env, now: number, input = "") {
  const lines: string[] = [];
  const io = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
  const stdin = Readable.from(input.length > 0 ? [Buffer.from(input)] : []);
  const code = await runEnquiriesCli(args, env, io, () => now, stdin);
  return { code, lines, text: lines.join("\n") };
}

const notify = (env: Env, now: number, text = TEXT, subject = SUBJECT) =>
  cli(["notify-operator", "--subject", subject], env, now, text);

/** Mail settings for a server on `port` (nothing listens there until startSmtp(port)). */
const mailOn = (port: number) => ({
  SMTP_URL: `smtp://127.0.0.1:${port}`,
  ENQUIRY_TO: "desk@cyrus.example",
  ENQUIRY_ALERT_TO: "ops@cyrus.example",
});

const WILL_BE_RETRIED =
  /^could not e-mail the operator now \(.*ECONNREFUSED.*\): the notice is stored in \S+ and will be retried on the outbox's schedule \(next at (\S+)\) by the enquiry service's sender \(cyrus-enquiry\.service\), or at once by npm run enquiries -- retry; npm run enquiries -- status shows it$/;

/** One statement's rows on the store of these settings, as an operator's SQL client would read them. */
async function query(env: Env, statement: string): Promise<Record<string, unknown>[]> {
  const db = settingsEngine({ dataDir: env.ENQUIRY_DATA_DIR!, databaseUrl: env.DATABASE_URL, databaseConnections: 1 });
  try {
    await db.open();
    return await db.all(statement);
  } finally {
    await db.close();
  }
}

describe.each(ENGINES)("operator notices on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  /** A store made (as the service makes it) and its settings, with mail through `port`. */
  async function storeWithMail(port: number) {
    const env = { ...(await engine.env()), ...mailOn(port) };
    const report = await engine.open(env).ready();
    return { env, report };
  }

  /** The service's sender (what the service runs on its timer) over a store of its own. */
  function serviceSender(env: Env & { ENQUIRY_DATA_DIR: string }, now: () => number, log = memoryLog()) {
    const config = loadConfig(env, projectRoot);
    return receiverOutbox(config, engine.open(env), createMailer(config), log, { now, random: () => 0.5 });
  }

  test("SMTP refusing: stored, exit 0, to be retried; status shows it; SMTP back: retry sends it once, as it was", async () => {
    const port = await freePort();
    const { env, report } = await storeWithMail(port);
    expect(report.migrationsApplied).toContain("011-operator-notices.sql");

    const stored = await notify(env, T0, `${TEXT}\u001b[31mred\u001b[0m\n`);
    expect(stored.code).toBe(0);
    expect(stored.lines).toEqual([expect.stringMatching(WILL_BE_RETRIED)]);
    // The outbox's schedule: the second attempt 30 s after the first (±20%).
    const nextAt = Date.parse(WILL_BE_RETRIED.exec(stored.lines[0]!)![1]!);
    expect(nextAt - T0).toBeGreaterThanOrEqual(24_000);
    expect(nextAt - T0).toBeLessThanOrEqual(36_000);

    const waiting = await cli(["status"], env, T0 + 60_000);
    expect(waiting.code).toBe(0);
    expect(waiting.lines).toContain("  operator notices: 1 waiting, 1 being retried; the oldest stored 1 min ago");
    expect(waiting.lines).toContainEqual(
      expect.stringMatching(
        /^ {4}notice \d+ of 2026-11-20T09:00:00\.000Z, 1 attempt\(s\), next attempt \S+: Website server web1: doctor found 1 problem\(s\)$/,
      ),
    );
    expect(waiting.lines).toContainEqual(expect.stringMatching(/^ {4}last error: .*ECONNREFUSED/));
    expect(waiting.lines.at(-1)).toBe("status: ok");

    const smtp = stopAfter(await startSmtp(port));
    const retried = await cli(["retry"], env, T0 + 120_000);
    expect(retried.code).toBe(0);
    expect(retried.lines).toContainEqual(expect.stringMatching(/^delivered {2}notice \d+ {2}operator notice$/));
    expect(retried.lines.at(-1)).toBe(
      "retry: 1 delivered, 0 still failing (operator notices: 1 delivered, 0 failing; email: 0 delivered, 0 failing)",
    );
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.rcptTo).toEqual(["ops@cyrus.example"]);
    const mail = parseMail(smtp.messages[0]!.raw);
    expect(mail.header("subject")).toBe(SUBJECT);
    expect(mail.header("x-operator-notice")).toBe("1");
    // Printable characters only, as when it was sent at once.
    expect(mail.text).toBe(`${TEXT}[31mred[0m`);

    // Sent: nothing waits, nothing is sent again.
    const after = await cli(["status"], env, T0 + 180_000);
    expect(after.text).not.toContain("operator notices");
    expect(after.lines.at(-1)).toBe("status: ok");
    expect((await cli(["retry"], env, T0 + 240_000)).lines.at(-1)).toBe("retry: 0 delivered, 0 still failing");
    expect(smtp.messages).toHaveLength(1);
    const attempts = await query(env, "SELECT outcome FROM operator_notice_attempts ORDER BY seq");
    expect(attempts.map((a) => a.outcome)).toEqual(["failed", "done"]);
  });

  test("the service's sender sends a due notice when its time comes; with retry and a second instance at once, once", async () => {
    const port = await freePort();
    const { env } = await storeWithMail(port);
    expect((await notify(env, T0)).lines).toEqual([expect.stringMatching(WILL_BE_RETRIED)]);
    const smtp = stopAfter(await startSmtp(port));
    const clock = { t: T0 + 1000 };
    const [one, two] = [serviceSender(env, () => clock.t), serviceSender(env, () => clock.t)];

    // Not yet due: the schedule holds it.
    await one.sendDue();
    expect(smtp.messages).toHaveLength(0);

    clock.t = T0 + 60_000;
    const [, , retried] = await Promise.all([one.sendDue(), two.sendDue(), cli(["retry"], env, clock.t)]);
    expect(retried.code).toBe(0);
    expect(smtp.messages).toHaveLength(1);
    expect(parseMail(smtp.messages[0]!.raw).header("x-operator-notice")).toBe("1");
    await Promise.all([one.sendDue(), two.sendDue()]);
    expect(smtp.messages).toHaveLength(1);
    expect(await query(env, "SELECT state, attempts FROM operator_notices")).toEqual([{ state: "done", attempts: 2 }]);
  });

  test("refused past the schedule: given up loudly after 12 attempts; status fails; retry sends it once SMTP is back", async () => {
    const port = await freePort();
    const { env } = await storeWithMail(port);
    expect((await notify(env, T0)).code).toBe(0);
    const clock = { t: T0 };
    const log = memoryLog();
    const sender = serviceSender(env, () => clock.t, log);
    const failedForGood = async () => (await query(env, "SELECT state FROM operator_notices"))[0]!.state === "failed";
    for (let i = 0; i < 15 && !(await failedForGood()); i += 1) {
      clock.t += 15 * HOUR;
      await sender.sendDue();
    }
    expect(await failedForGood()).toBe(true);
    expect(log.lines).toContainEqual(
      expect.stringMatching(
        /^error: operator notice \d+ \("Website server web1: doctor found 1 problem\(s\)"\): e-mailing the operator FAILED for good after 12 attempts over about three days \(.*ECONNREFUSED.*\)/,
      ),
    );
    const attempts = await query(env, "SELECT COUNT(*) AS n FROM operator_notice_attempts");
    expect(Number(attempts[0]!.n)).toBe(12);

    const failing = await cli(["status"], env, clock.t);
    expect(failing.code).toBe(1);
    expect(failing.lines).toContainEqual(
      expect.stringMatching(/^ {2}operator notices: FAILING: 1 waiting, 1 failed for good; the oldest stored \d+ days/),
    );
    expect(failing.lines).toContain("    re-send: npm run enquiries -- retry");
    expect(failing.lines.at(-1)).toBe("status: FAILING (operator notices)");

    const smtp = stopAfter(await startSmtp(port));
    expect((await cli(["retry"], env, clock.t)).code).toBe(0);
    expect(smtp.messages.map((m) => parseMail(m.raw).header("subject"))).toEqual([SUBJECT]);
    expect((await cli(["status"], env, clock.t)).lines.at(-1)).toBe("status: ok");
  });

  test("the same notice while one is due is kept once and sent once; another text is another notice; sent, it may come again", async () => {
    const port = await freePort();
    const { env } = await storeWithMail(port);
    expect((await notify(env, T0)).lines).toEqual([expect.stringMatching(WILL_BE_RETRIED)]);
    const again = await notify(env, T0 + HOUR);
    expect(again.code).toBe(0);
    expect(again.lines).toEqual([
      expect.stringMatching(
        /^could not e-mail the operator now \(.*\): the same notice was stored already and is still due: not stored again; the notice is stored in /,
      ),
    ]);
    expect((await notify(env, T0 + HOUR, `${TEXT}PROBLEM: another\n`)).code).toBe(0);
    expect((await cli(["status"], env, T0 + HOUR)).lines).toContain(
      "  operator notices: 2 waiting, 2 being retried; the oldest stored 1 h 0 min ago",
    );

    const smtp = stopAfter(await startSmtp(port));
    expect((await cli(["retry"], env, T0 + 2 * HOUR)).code).toBe(0);
    expect(smtp.messages.map((m) => parseMail(m.raw).text).sort()).toEqual([TEXT.trimEnd(), `${TEXT}PROBLEM: another`]);

    // The next day the same lines again: the first was sent, so this is a notice of its own, sent at once.
    const nextDay = await notify(env, T0 + DAY);
    expect(nextDay).toMatchObject({
      code: 0,
      lines: ["the operator was e-mailed (ENQUIRY_ALERT_TO, else ENQUIRY_TO)"],
    });
    expect(smtp.messages).toHaveLength(3);
  });

  test("sent notices are removed 90 days after, with their attempts, as the next is stored; those not sent stay", async () => {
    const port = await freePort();
    const { env } = await storeWithMail(port);
    // Refused: it waits (and is retried no more in this test); then one sent at T0.
    expect((await notify(env, T0, "waiting\n")).code).toBe(0);
    stopAfter(await startSmtp(port));
    expect((await notify(env, T0, "sent\n")).lines).toEqual([
      "the operator was e-mailed (ENQUIRY_ALERT_TO, else ENQUIRY_TO)",
    ]);
    const texts = async () =>
      (await query(env, "SELECT text FROM operator_notices ORDER BY seq")).map((r) => String(r.text).trim());

    expect((await notify(env, T0 + 89 * DAY, "day 89\n")).code).toBe(0);
    expect(await texts()).toEqual(["waiting", "sent", "day 89"]);
    expect((await notify(env, T0 + 91 * DAY, "day 91\n")).code).toBe(0);
    expect(await texts()).toEqual(["waiting", "day 89", "day 91"]);
    // The attempts of the one removed went with it: those left are the others' (one each, and the waiting one's).
    const attempts = await query(env, "SELECT COUNT(*) AS n FROM operator_notice_attempts");
    expect(Number(attempts[0]!.n)).toBe(3);
  });
});

describe("operator notices without a store to keep them (SQLite not made yet)", () => {
  test("sent at once and said not stored; refused too: exit 1, and no store is made", async () => {
    const dir = path.join(tempDir(), "enquiries");
    const port = await freePort();
    const env = { ENQUIRY_DATA_DIR: dir, ...mailOn(port) };
    const refused = await notify(env, T0);
    expect(refused.code).toBe(1);
    expect(refused.lines).toEqual([
      expect.stringMatching(
        `^could not e-mail the operator \\(.*ECONNREFUSED.*\\), nor store the notice to retry it \\(no store at ${dir}/enquiries\\.sqlite: the service makes it as it starts\\)$`,
      ),
    ]);
    const smtp = stopAfter(await startSmtp(port));
    expect(await notify(env, T0)).toMatchObject({
      code: 0,
      lines: [
        `the operator was e-mailed (ENQUIRY_ALERT_TO, else ENQUIRY_TO); the notice was not stored (no store at ${dir}/enquiries.sqlite: the service makes it as it starts)`,
      ],
    });
    expect(smtp.messages).toHaveLength(1);
    expect(parseMail(smtp.messages[0]!.raw).header("x-operator-notice")).toBe("1");
    expect(fs.existsSync(dir)).toBe(false);
  });
});
