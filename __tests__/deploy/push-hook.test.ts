/**
 * The git host's push webhook on the site's own service (src/site-service/push-hook). No git host can be
 * reached from these machines: each test signs its request as GitHub, GitLab or Gitea do
 * (documented formats), and checks what the service answers and whether a release is noted.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  createEnquiryService,
  takeReleaseWanted,
  WANTED_FILE,
  type EnquiryService,
  type JsonLog,
} from "../../src/site-service";
import { request } from "./support/http";
import { startStack, type Stack } from "./support/stack";

const SECRET = crypto.randomBytes(24).toString("hex");
const dirs: string[] = [];
let service: EnquiryService;
let origin: string;
let requests: string;
const logLines: string[] = [];
const silent = { info() {}, warn() {}, error() {} };
/** The service's log, kept for the assertions that no secret reaches it. */
const recordingLog = Object.assign(
  (level: string, msg: string, fields = {}) => void logLines.push(JSON.stringify({ level, msg, ...fields })),
  { receiverLogger: silent },
) as JsonLog;

beforeAll(async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "push-hook-data-"));
  requests = fs.mkdtempSync(path.join(os.tmpdir(), "push-hook-requests-"));
  dirs.push(dataDir, requests);
  service = createEnquiryService({
    env: {
      ENQUIRY_DATA_DIR: dataDir,
      ENQUIRY_HOST: "127.0.0.1",
      ENQUIRY_PORT: "0",
      RELEASE_HOOK_SECRET: SECRET,
      RELEASE_REQUESTS_DIR: requests,
      RELEASE_BRANCH: "main",
    },
    log: recordingLog,
  });
  const address = await service.listen();
  origin = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await service.shutdown("test done");
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => takeReleaseWanted(requests));

const commit = () => crypto.randomBytes(20).toString("hex");
const pushBody = (ref: string, after: string) => JSON.stringify({ ref, after, before: "0".repeat(40), commits: [] });
const hmac = (body: string, secret = SECRET) => crypto.createHmac("sha256", secret).update(body).digest("hex");

/** Each host's own headers for a push, signed with the given secret. */
const signed: Record<string, (body: string, secret?: string) => Record<string, string>> = {
  github: (body, secret) => ({ "x-github-event": "push", "x-hub-signature-256": `sha256=${hmac(body, secret)}` }),
  gitlab: (_body, secret = SECRET) => ({ "x-gitlab-event": "Push Hook", "x-gitlab-token": secret }),
  gitea: (body, secret) => ({ "x-gitea-event": "push", "x-gitea-signature": hmac(body, secret) }),
};

async function post(host: string, body: string, headers: Record<string, string>) {
  const response = await fetch(`${origin}/hooks/push/${host}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: response.status, json: (await response.json()) as Record<string, string> };
}

describe.each(Object.keys(signed))("a push from %s", (host) => {
  test("signed, to the release branch: answered 202 at once and a release of that commit is noted", async () => {
    const sha = commit();
    const body = pushBody("refs/heads/main", sha);
    // The service's unit runs it with umask 0077 (deploy/systemd/cyrus-enquiry.service); only for
    // this request: files the other tests make (nginx's copy of the site) must stay readable.
    const umask = process.umask(0o077);
    const answer = await post(host, body, signed[host]!(body)).finally(() => process.umask(umask));
    expect(answer).toEqual({ status: 202, json: { status: "release wanted", branch: "main", commit: sha } });
    // The release's user reads it through the folder's group, whatever the service's umask.
    expect(fs.statSync(path.join(requests, WANTED_FILE)).mode & 0o777).toBe(0o660);
    expect(takeReleaseWanted(requests)).toMatchObject({ branch: "main", commit: sha, host });
  });

  test("with a wrong secret, or none: refused 401, nothing noted, the secret never in the log", async () => {
    const body = pushBody("refs/heads/main", commit());
    const wrong = "x".repeat(SECRET.length);
    const headers = signed[host]!(body, wrong);
    expect((await post(host, body, headers)).status).toBe(401);
    const unsigned = Object.fromEntries(Object.entries(headers).filter(([name]) => !/token|signature/.test(name)));
    const answer = await post(host, body, unsigned);
    expect(answer.status).toBe(401);
    expect(answer.json.message).toMatch(/^Refused: no X-/);
    expect(fs.existsSync(path.join(requests, WANTED_FILE))).toBe(false);
    expect(logLines.join("\n")).not.toContain(wrong);
    expect(logLines.join("\n")).not.toContain(SECRET);
  });

  test("to another branch: ignored, nothing noted", async () => {
    const body = pushBody("refs/heads/feature/new-banner", commit());
    const answer = await post(host, body, signed[host]!(body));
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({
      status: "ignored",
      reason: "the site is released from main, not feature/new-banner",
    });
    expect(takeReleaseWanted(requests)).toBeNull();
  });
});

test("a body signed for other content is refused (the signature covers the body)", async () => {
  const body = pushBody("refs/heads/main", commit());
  const headers = signed.github!(pushBody("refs/heads/main", commit()));
  expect((await post("github", body, headers)).status).toBe(401);
  expect(takeReleaseWanted(requests)).toBeNull();
});

test("pushes that arrive while a release builds become one next release, of the newest commit", async () => {
  const commits = [commit(), commit(), commit()];
  for (const sha of commits) {
    const body = pushBody("refs/heads/main", sha);
    expect((await post("github", body, signed.github!(body))).status).toBe(202);
  }
  expect(takeReleaseWanted(requests)).toMatchObject({ commit: commits[2] });
  expect(takeReleaseWanted(requests)).toBeNull();
});

test("GitHub's ping when the hook is created, and a deleted branch, are answered and start nothing", async () => {
  const ping = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
  const answer = await post("github", ping, { ...signed.github!(ping), "x-github-event": "ping" });
  expect(answer).toEqual({ status: 200, json: { status: "ignored", reason: 'not a branch push (event "ping")' } });
  const deletion = pushBody("refs/heads/main", "0".repeat(40));
  expect((await post("github", deletion, signed.github!(deletion))).json.status).toBe("ignored");
  expect(takeReleaseWanted(requests)).toBeNull();
});

test("an unknown host, a GET and an oversized body get clear JSON errors", async () => {
  const unknown = await post("bitbucket", "{}", {});
  expect(unknown.status).toBe(404);
  expect(unknown.json.message).toBe('No push hook for "bitbucket": use github, gitlab, gitea.');
  const get = await fetch(`${origin}/hooks/push/github`);
  expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
  const huge = "x".repeat(1024 * 1024 + 1);
  expect((await post("github", huge, signed.github!(huge))).status).toBe(413);
});

test("the hook is off, 404, when no secret is set", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "push-hook-off-"));
  dirs.push(dataDir);
  const off = createEnquiryService({ env: { ENQUIRY_DATA_DIR: dataDir, ENQUIRY_PORT: "0" }, log: recordingLog });
  const { port } = await off.listen();
  try {
    const body = pushBody("refs/heads/main", commit());
    const response = await fetch(`http://127.0.0.1:${port}/hooks/push/github`, {
      method: "POST",
      headers: signed.github!(body),
      body,
    });
    expect(response.status).toBe(404);
  } finally {
    await off.shutdown("test done");
  }
});

describe("behind nginx (deploy/nginx, rendered standalone)", () => {
  let stack: Stack;
  let folder: string;
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "push-hook-nginx-"));
    dirs.push(folder);
    stack = await startStack({ serviceEnv: { RELEASE_HOOK_SECRET: SECRET, RELEASE_REQUESTS_DIR: folder } });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  test("a signed push passes nginx and is noted; a flood of unsigned ones is cut off by nginx", async () => {
    const sha = commit();
    const body = pushBody("refs/heads/main", sha);
    const answer = await request(`${stack.origin}/hooks/push/github`, {
      method: "POST",
      headers: { "content-type": "application/json", ...signed.github!(body) },
      body,
    });
    expect(answer.status).toBe(202);
    expect(takeReleaseWanted(folder)).toMatchObject({ commit: sha });

    const statuses: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const forged = await request(`${stack.origin}/hooks/push/github`, {
        method: "POST",
        body: pushBody("refs/heads/main", commit()),
      });
      statuses.push(forged.status);
    }
    // One passed above; a burst of 10 more reach the service (and are refused there); then nginx's
    // 429 (a slow machine may let one more through every 2 s, the zone's rate).
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(5);
    expect(statuses.filter((status) => status !== 429 && status !== 401)).toEqual([]);
    expect(takeReleaseWanted(folder)).toBeNull();
  });
});
