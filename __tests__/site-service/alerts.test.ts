/**
 * No delivery dies in silence, on each engine, on an injected clock, with a real SMTP server and a
 * webhook endpoint on loopback: a webhook down for longer than the schedule makes exactly one alert
 * e-mail to the operator (none of the visitors' data in it), however many instances look; once it is
 * back, `retry` delivers every enquiry once, with the webhook-id it had; `status` exits 1 while a
 * channel fails (the e-mail, which cannot report itself) and 0 once everything is delivered; and
 * `retry` prints ids, never a visitor's address.
 */
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { receiverOutbox } from "../../src/site-service/enquiries/outbox/receiver-outbox";
import { freePort } from "../support/serve";
import { parseMail } from "../support/mail";
import { startSmtp, type SmtpSink } from "../support/smtp";
import { newSecret, startWebhookSink } from "../support/webhook-sink";
import { ENGINES, engineUnderTest } from "./support/engines";
import {
  anotherEnquiry,
  memoryLog,
  projectRoot,
  startReceiver,
  stoppedAfterEach,
  validEnquiry,
} from "./support/harness";

const HOUR = 3600_000;
const stopAfter = stoppedAfterEach();
const mailTo = (port: number) => ({ SMTP_URL: `smtp://127.0.0.1:${port}`, ENQUIRY_TO: "desk@cyrus.example" });
const VISITOR = [validEnquiry.name, validEnquiry.email, validEnquiry.phone, validEnquiry.message];

/** A CLI run's exit code and every line it wrote. */
async function cli(args: string[], env: Record<string, string | undefined>, now: () => number) {
  const lines: string[] = [];
  const io = { out: (l: string) => void lines.push(l), err: (l: string) => void lines.push(l) };
  const code = await runEnquiriesCli(args, env, io, now);
  return { code, lines, text: lines.join("\n") };
}

const alertsIn = (smtp: SmtpSink) => smtp.messages.filter((m) => m.rcptTo.includes("ops@cyrus.example"));

describe.each(ENGINES)("on %s", (name) => {
  const engine = engineUnderTest(name);
  afterEach(() => engine.cleanUp());

  /** A receiver on an injected clock posting to the webhook at `url`, alerts to ops@ through a real SMTP server. */
  async function alertingSite(url: string, secret: string) {
    const smtp = stopAfter(await startSmtp());
    const clock = { t: Date.parse("2026-11-26T09:00:00Z") };
    const now = () => clock.t;
    const env = {
      ...(await engine.env()),
      ...mailTo(smtp.port),
      ENQUIRY_ALERT_TO: "ops@cyrus.example",
      ENQUIRY_WEBHOOK_URL: url,
      ENQUIRY_WEBHOOK_SECRET: secret,
    };
    const site = stopAfter(await startReceiver(env, { now, outbox: { random: () => 0.5, webhookTimeoutMs: 500 } }));
    return { smtp, clock, now, env, site, cliEnv: { ...env, ENQUIRY_DATA_DIR: site.dir } };
  }

  test("a webhook down longer than the schedule: one alert e-mail, no visitor data; then retry sends each once, same webhook-id", async () => {
    const secret = newSecret();
    const endpoint = { up: false };
    const sink = stopAfter(await startWebhookSink(secret, () => ({ status: endpoint.up ? 200 : 500 })));
    const { smtp, clock, now, site, cliEnv } = await alertingSite(sink.url, secret);
    // A second instance on the same store: it looks for failures too, and must not alert again.
    const other = receiverOutbox(loadConfig(cliEnv, projectRoot), engine.open(cliEnv), undefined, memoryLog(), {
      now,
      random: () => 0.5,
      webhookTimeoutMs: 500,
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push(String((await site.post(anotherEnquiry(i))).body.id));
    await site.receiver.drain();

    const allFailed = async () =>
      (await site.receiver.store.outboxStates()).filter((r) => r.destination === "webhook" && r.state === "failed")
        .length === 3;
    for (let i = 0; i < 20 && !(await allFailed()); i += 1) {
      clock.t += 13 * HOUR;
      await Promise.all([site.receiver.sendDue(), other.sendDue()]);
    }
    expect(await allFailed()).toBe(true);
    clock.t += 13 * HOUR;
    await Promise.all([site.receiver.sendDue(), other.sendDue()]);

    const alerts = alertsIn(smtp);
    expect(alerts).toHaveLength(1);
    const alert = parseMail(alerts[0]!.raw);
    expect(alert.header("subject")).toBe("Website enquiries: webhook deliveries failing (3 enquiries waiting)");
    expect(alert.header("x-enquiry-alert")).toBe("webhook");
    expect(alert.text).toContain(`not reaching the webhook (${new URL(sink.url).host})`);
    expect(alert.text).toContain("3 enquiries wait to be sent there");
    expect(alert.text).toContain("  npm run enquiries -- retry --channel webhook\n");
    for (const secretOfVisitor of [...VISITOR, ...ids]) expect(alerts[0]!.raw).not.toContain(secretOfVisitor);
    // The enquiries' own e-mails went to the desk, once each.
    expect(smtp.messages.filter((m) => m.rcptTo.includes("desk@cyrus.example"))).toHaveLength(3);

    const failing = await cli(["status"], cliEnv, now);
    expect(failing.code).toBe(1);
    expect(failing.text).toMatch(/ {2}webhook: FAILING: 3 waiting, 3 failed for good; the oldest received \d+ days/);
    expect(failing.text).toContain("    re-send: npm run enquiries -- retry --channel webhook");
    expect(failing.lines.at(-1)).toBe("status: FAILING (webhook)");

    const before = sink.received.length;
    const firstIds = new Set(sink.received.map((r) => r.id));
    endpoint.up = true;
    const retried = await cli(["retry"], cliEnv, now);
    expect(retried.code).toBe(0);
    const resent = sink.received.slice(before);
    expect(resent.map((r) => r.id).sort()).toEqual(ids.map((id) => `msg_${id}`).sort());
    expect(resent.every((r) => r.valid)).toBe(true);
    expect(new Set(resent.map((r) => r.id))).toEqual(firstIds);
    expect(retried.lines.at(-1)).toBe(
      "retry: 3 delivered, 0 still failing (webhook: 3 delivered, 0 failing; email: 0 delivered, 0 failing)",
    );
    for (const id of ids)
      expect(retried.lines).toContainEqual(expect.stringMatching(`^delivered  ${id}  .*  webhook$`));
    for (const data of VISITOR) expect(retried.text).not.toContain(data);

    const ok = await cli(["status"], cliEnv, now);
    expect(ok.lines.at(-1)).toBe("status: ok");
    expect(ok.code).toBe(0);
    expect(await site.receiver.store.openAlerts()).toEqual([]);
    // Nothing more goes out: neither the deliveries nor the alert.
    clock.t += 24 * HOUR;
    await Promise.all([site.receiver.sendDue(), other.sendDue()]);
    expect(sink.received).toHaveLength(before + 3);
    expect(alertsIn(smtp)).toHaveLength(1);
  });

  test("a webhook that answers 410 Gone: one alert e-mail in the same pass, saying so; a new URL delivers and ends it", async () => {
    const secret = newSecret();
    const gone = stopAfter(await startWebhookSink(secret, () => ({ status: 410 })));
    const moved = stopAfter(await startWebhookSink(secret, () => ({ status: 200 })));
    const { smtp, now, site, cliEnv } = await alertingSite(gone.url, secret);
    for (let i = 0; i < 2; i += 1) await site.post(anotherEnquiry(i));
    await site.receiver.drain();
    await site.receiver.sendDue();

    // Minutes after the first 410, not an hour: nothing will go there again by itself.
    const alerts = alertsIn(smtp);
    expect(alerts).toHaveLength(1);
    const alert = parseMail(alerts[0]!.raw);
    expect(alert.text).toContain("The webhook answered 410 Gone");
    expect(alert.text).toContain("set ENQUIRY_WEBHOOK_URL to its new address");
    for (const data of VISITOR) expect(alerts[0]!.raw).not.toContain(data);
    const failing = await cli(["status"], cliEnv, now);
    expect(failing.code).toBe(1);
    expect(failing.text).toContain("410 Gone");

    // The setting names the new address: the same enquiries go there, and the incident ends.
    const movedEnv = { ...cliEnv, ENQUIRY_WEBHOOK_URL: moved.url };
    const retried = await cli(["retry", "--channel", "webhook"], movedEnv, now);
    expect(retried.code).toBe(0);
    expect(moved.received).toHaveLength(2);
    const ok = await cli(["status"], movedEnv, now);
    expect(ok.lines.at(-1)).toBe("status: ok");
    expect(await site.receiver.store.openAlerts()).toEqual([]);
    expect(alertsIn(smtp)).toHaveLength(1);
  });

  test("SMTP down: status says so and exits 1 (no e-mail can tell); retry prints no address; delivered: status exits 0", async () => {
    const port = await freePort(); // no mail server yet
    const clock = { t: Date.parse("2026-11-26T09:00:00Z") };
    const now = () => clock.t;
    const env = { ...(await engine.env()), ...mailTo(port) };
    const site = stopAfter(await startReceiver(env, { now, outbox: { random: () => 0.5 } }));
    const cliEnv = { ...env, ENQUIRY_DATA_DIR: site.dir };
    expect((await cli(["status"], cliEnv, now)).code).toBe(0); // nothing stored, nothing failing

    const { body } = await site.post(validEnquiry);
    await site.receiver.drain();
    // Fresh: waiting, not failing yet.
    const fresh = await cli(["status"], cliEnv, now);
    expect(fresh.code).toBe(0);
    expect(fresh.text).toContain("  email: 1 waiting, 1 being retried; the oldest received 0 min ago");

    clock.t += 2 * HOUR;
    await site.receiver.sendDue();
    const down = await cli(["status"], cliEnv, now);
    expect(down.code).toBe(1);
    expect(down.text).toContain("  email: FAILING: 1 waiting, 1 being retried; the oldest received 2 h 0 min ago");
    expect(down.text).toMatch(/ {4}last error: .*ECONNREFUSED/);
    expect(down.text).toContain("    re-send: npm run enquiries -- retry --channel email");
    expect(down.lines.at(-1)).toBe("status: FAILING (email)");
    expect(site.log.lines.filter((l) => l.startsWith("error: ALERT: enquiry deliveries to the email"))).toHaveLength(1);

    const stillDown = await cli(["retry", "--channel", "email"], cliEnv, now);
    expect(stillDown.code).toBe(1);
    expect(stillDown.lines).toContainEqual(
      expect.stringMatching(`^failed     ${String(body.id)}  .*  email: .*ECONNREFUSED`),
    );
    for (const data of VISITOR) expect(stillDown.text).not.toContain(data);

    const smtp = stopAfter(await startSmtp(port));
    const up = await cli(["retry", "--channel", "email"], cliEnv, now);
    expect(up.code).toBe(0);
    expect(up.lines).toContain(
      `delivered  ${String(body.id)}  ${new Date(Date.parse("2026-11-26T09:00:00Z")).toISOString()}  email`,
    );
    expect(up.lines.at(-1)).toBe("retry: 1 delivered, 0 still failing");
    for (const data of VISITOR) expect(up.text).not.toContain(data);
    expect(smtp.messages).toHaveLength(1);

    const ok = await cli(["status"], cliEnv, now);
    expect(ok.code).toBe(0);
    expect(ok.lines).toEqual([
      expect.stringMatching(/^enquiry deliveries in /),
      "  email: ok, nothing waiting",
      "status: ok",
    ]);
  });

  test("list --undelivered shows each channel's state; retry --channel checks its value", async () => {
    const secret = newSecret();
    const sink = stopAfter(await startWebhookSink(secret, () => ({ status: 500 })));
    const smtp = stopAfter(await startSmtp());
    const env = {
      ...(await engine.env()),
      ...mailTo(smtp.port),
      ENQUIRY_WEBHOOK_URL: sink.url,
      ENQUIRY_WEBHOOK_SECRET: secret,
    };
    const site = stopAfter(await startReceiver(env, { outbox: { webhookTimeoutMs: 500 } }));
    await site.post(validEnquiry);
    await site.receiver.drain();
    const cliEnv = { ...env, ENQUIRY_DATA_DIR: site.dir };
    const listed = await cli(["list", "--undelivered"], cliEnv, Date.now);
    expect(listed.lines[0]).toMatch(/^received \(UTC\)\s+id\s+delivery\s+tries\s+webhook\s+name/);
    expect(listed.lines[2]).toMatch(/\s+delivered\s+1\s+retrying\s+Priya Raman/);
    expect(listed.lines).toContain("undelivered: webhook 1");
    expect(listed.lines.at(-1)).toMatch(/^1 undelivered enquiry in /);
    const wrong = await cli(["retry", "--channel", "fax"], cliEnv, Date.now);
    expect(wrong).toMatchObject({ code: 2, lines: ['retry --channel is email, webhook, reply or all (got "fax")'] });
  });
});
