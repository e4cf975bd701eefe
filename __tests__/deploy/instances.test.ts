/**
 * Two instances of the enquiry service on one PostgreSQL, behind nginx rendered with both as
 * upstreams (render.ts --upstream a,b), each running its outbox's sender, with e-mail to a local
 * SMTP server and a signed webhook to a local endpoint: 1,000 enquiries through nginx are shared out
 * between them; resends of some go straight to each instance, and some new ones reach both at once.
 * Every enquiry is stored once, e-mailed once and posted to the webhook once.
 * Bounded: 1,000 enquiries, the load within 150 s, the deliveries within 90 s more. Bounds for a hang, not
 * measures: CI runs this beside the built-site tests, where the whole test took 78 s (33 s alone).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readStoredLines } from "../../src/site-service";
import { parseMail } from "../support/mail";
import { startSmtp, type SmtpSink } from "../support/smtp";
import { newSecret, startWebhookSink, type WebhookSink } from "../support/webhook-sink";
import { startPostgres, type TestPostgres } from "../support/postgres";
import { freePort } from "../support/serve";
import { LIFTED_LIMITS, NGINX, projectRoot, run, stopProc, waitFor, type Proc } from "./support/stack";
import { sleep, until } from "./support/until";

const COUNT = 1_000;
const RESENT = 100; // of those, each sent again to both instances directly
const RACED = 20; // new ones sent to both instances at the same moment
const CLIENTS = 16;
const LOAD_MS = 150_000;

const enquiry = (n: number) => ({
  name: "Two Instances",
  phone: "",
  email: "instances@example.in",
  message: `Enquiry ${n} for two instances`,
});

const procs: Proc[] = [];
const stoppable: Array<SmtpSink | WebhookSink | TestPostgres> = [];
let base: string;

afterAll(async () => {
  for (const proc of procs.reverse()) await stopProc(proc, "SIGTERM", 10_000);
  for (const thing of stoppable.reverse()) await thing.stop();
  if (base) fs.rmSync(base, { recursive: true, force: true });
}, 60_000);

async function post(url: string, body: object): Promise<{ status: number; id?: string; duplicate?: boolean }> {
  const res = await fetch(url, {
    method: "POST",
    // Straight to an instance, as nginx would have sent it (the service trusts the proxy's headers).
    headers: { "content-type": "application/json", "x-forwarded-for": "127.0.0.1" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const answer = (await res.json()) as { id?: string; duplicate?: boolean };
  return { status: res.status, id: answer.id, duplicate: answer.duplicate };
}

test("1,000 enquiries across two instances: each stored once, e-mailed once, posted once", async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-instances-"));
  fs.chmodSync(base, 0o755);
  const postgres = await startPostgres();
  stoppable.push(postgres);
  const databaseUrl = await postgres.createDatabase();
  const smtp = await startSmtp();
  stoppable.push(smtp);
  const secret = newSecret();
  const webhook = await startWebhookSink(secret, () => ({ status: 200 }));
  stoppable.push(webhook);

  const ports = [await freePort(), await freePort()];
  const instances = ports.map((port, i) => {
    const proc = run(process.execPath, ["--import", "tsx", "src/site-service/bin/site-service.ts"], {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        ENQUIRY_DATA_DIR: path.join(base, `instance-${i}`),
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        ENQUIRY_TO: "desk@cyrus.example",
        ENQUIRY_WEBHOOK_URL: webhook.url,
        ENQUIRY_WEBHOOK_SECRET: secret,
        ENQUIRY_AWAIT_DELIVERY: "0",
        ENQUIRY_RATE_LIMIT: "100000",
        ENQUIRY_TRUST_PROXY: "1",
        ENQUIRY_HOST: "127.0.0.1",
        ENQUIRY_PORT: String(port),
      },
    });
    procs.push(proc);
    return { proc, url: `http://127.0.0.1:${port}` };
  });
  for (const { proc, url } of instances) await waitFor(`${url}/healthz`, 200, 300, () => proc.child.exitCode === null);

  // nginx in front of both, for a build of its own (only /api/ matters here).
  const root = path.join(base, "public");
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, "404.html"), "<!DOCTYPE html><title>Not found</title>");
  const confDir = path.join(base, "nginx");
  const nginxPort = await freePort();
  const render = run(process.execPath, [
    "--import",
    "tsx",
    "deploy/nginx/render.ts",
    "--standalone",
    "--root",
    root,
    "--out",
    confDir,
    "--listen",
    `127.0.0.1:${nginxPort}`,
    "--upstream",
    ports.map((p) => `127.0.0.1:${p}`).join(","),
    "--workers",
    "1",
    "--no-access-log",
    ...LIFTED_LIMITS,
  ]);
  expect(await render.exited).toBe(0);
  const nginx = run(NGINX, ["-p", confDir, "-c", "nginx.conf", "-e", path.join(confDir, "logs", "error.log")], {
    cwd: projectRoot,
  });
  procs.push(nginx);
  const origin = `http://127.0.0.1:${nginxPort}`;
  await waitFor(`${origin}/api/health`, 200, 150, () => nginx.child.exitCode === null);

  // 1,000 through nginx, from a few clients at once.
  const ids = new Map<number, string>();
  const refused: string[] = [];
  let next = 0;
  const started = Date.now();
  const client = async () => {
    while (next < COUNT && Date.now() - started < LOAD_MS) {
      const n = next++;
      const answer = await post(`${origin}/api/email`, enquiry(n));
      if (answer.status === 201 && answer.id) ids.set(n, answer.id);
      else refused.push(`${n}: ${answer.status}`);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  expect(refused).toEqual([]);
  expect(ids.size).toBe(COUNT);
  // Both instances took a share (nginx's round robin).
  const handled = instances.map(
    ({ proc }) =>
      proc
        .output()
        .split("\n")
        .filter((l) => l.includes('"path":"/api/email"')).length,
  );
  expect(Math.min(...handled)).toBeGreaterThan(COUNT / 4);

  // Resends straight to each instance (one of the two is the other instance), a few at a time:
  // answered as the first. Then new ones reaching both at the same moment: one stored, both
  // answered with its id.
  const resend = async (from: number) => {
    for (let n = from; n < RESENT; n += CLIENTS / 2) {
      for (const { url } of instances) {
        expect(await post(`${url}/api/email`, enquiry(n))).toEqual({ status: 200, id: ids.get(n), duplicate: true });
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS / 2 }, (_, i) => resend(i)));
  const race = async (n: number) => {
    const answers = await Promise.all(instances.map(({ url }) => post(`${url}/api/email`, enquiry(n))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 201]);
    expect(answers[0]!.id).toBe(answers[1]!.id);
    ids.set(n, answers[0]!.id!);
  };
  await Promise.all(Array.from({ length: RACED }, (_, i) => race(COUNT + i)));
  const total = COUNT + RACED;

  // Stored once.
  const stored = (await readStoredLines({
    DATABASE_URL: databaseUrl,
    ENQUIRY_DATA_DIR: path.join(base, "reader"),
  })) as Array<{ id: string; message: string }>;
  expect(stored).toHaveLength(total);
  expect(new Set(stored.map((e) => e.message)).size).toBe(total);
  expect(new Set(stored.map((e) => e.id))).toEqual(new Set(ids.values()));

  // Delivered once each way, by whichever instance claimed it; nothing more after another pass.
  await until(() => smtp.messages.length >= total && webhook.received.length >= total, 90_000, "every delivery");
  await sleep(6_000); // longer than the senders' interval (5 s)
  const mailed = smtp.messages.map((m) => parseMail(m.raw).header("x-enquiry-id"));
  expect(mailed).toHaveLength(total);
  expect(new Set(mailed)).toEqual(new Set(ids.values()));
  expect(webhook.received).toHaveLength(total);
  expect(webhook.received.every((r) => r.valid)).toBe(true);
  expect(new Set(webhook.received.map((r) => r.id))).toEqual(new Set([...ids.values()].map((id) => `msg_${id}`)));
}, 360_000);
