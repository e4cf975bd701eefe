/**
 * The standalone enquiry service (npm run site-service) as its own process: health endpoint,
 * structured logs without personal data, settings (fail fast; behind a proxy), and graceful
 * shutdown: a request in flight at SIGTERM is finished and stored; one that never finishes is cut
 * off after the shutdown timeout.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readStoredLinesNow } from "../../src/site-service";
import { freePort } from "../support/serve";
import { rawJson, request, slowPost } from "./support/http";
import { run, stopProc, waitFor, type Proc } from "./support/stack";

const dirs: string[] = [];
const procs: Proc[] = [];

afterAll(async () => {
  for (const proc of procs) await stopProc(proc, "SIGKILL", 5_000);
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

interface Service {
  proc: Proc;
  origin: string;
  port: number;
  dataDir: string;
  stored(): Array<Record<string, string>>;
  log(): Array<Record<string, unknown>>;
}

function spawnService(env: NodeJS.ProcessEnv, port: number, dataDir: string): Proc {
  const proc = run(process.execPath, ["--import", "tsx", "src/site-service/bin/site-service.ts"], {
    env: {
      ...process.env,
      SMTP_URL: "",
      ENQUIRY_TO: "",
      ENQUIRY_RATE_LIMIT: "1000",
      ENQUIRY_HOST: "127.0.0.1",
      ENQUIRY_PORT: String(port),
      ENQUIRY_DATA_DIR: dataDir,
      ...env,
    },
  });
  procs.push(proc);
  return proc;
}

async function startService(env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-service-"));
  dirs.push(dataDir);
  const port = await freePort();
  const proc = spawnService(env, port, dataDir);
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(`${origin}/healthz`, 200, 300, () => proc.child.exitCode === null);
  return {
    proc,
    origin,
    port,
    dataDir,
    stored: () => readStoredLinesNow(dataDir),
    log: () =>
      proc
        .output()
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const enquiry = {
  name: "Kavitha Subramanian",
  phone: "+91 98400 12345",
  email: "kavitha@example.in",
  message: "Secret study plans.",
};
const body = JSON.stringify(enquiry);

/** Resolves "still running" after ms (a timer that does not keep Jest alive). */
const stillRunningAfter = (ms: number) =>
  new Promise((resolve) => setTimeout(() => resolve("still running"), ms).unref());

const until = async (condition: () => boolean, ms: number) => {
  for (let waited = 0; !condition(); waited += 25) {
    if (waited > ms) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

describe("endpoints", () => {
  let service: Service;
  beforeAll(async () => {
    service = await startService();
  }, 60_000);
  afterAll(() => stopProc(service?.proc));

  test.each(["/healthz", "/api/health"])("GET %s is 200 {status: ok}; HEAD has no body; POST is 405", async (p) => {
    const get = await request(`${service.origin}${p}`);
    expect(get.status).toBe(200);
    expect(get.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(get.body.toString())).toEqual({ status: "ok" });
    const head = await request(`${service.origin}${p}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    const post = await request(`${service.origin}${p}`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET, HEAD");
  });

  test("POST /api/email is the receiver: 201 and stored; its refusals as they are", async () => {
    const res = await request(`${service.origin}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(201);
    const { id } = JSON.parse(res.body.toString()) as { id: string };
    expect(service.stored()).toEqual([
      {
        v: 3,
        id,
        receivedAt: expect.any(String),
        ...enquiry,
        screening: { verdict: "clean", signals: [] },
        delivery: "stored-only",
      },
    ]);
    const get = await request(`${service.origin}/api/email`);
    expect(get.status).toBe(405);
    const bad = await request(`${service.origin}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(JSON.parse(bad.body.toString())).toMatchObject({ error: "invalid_json" });
  });

  test("other paths are a JSON 404", async () => {
    const res = await request(`${service.origin}/email`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: "not_found" });
  });

  test("logs are JSON lines; one per request, with no personal data and no query string", async () => {
    await request(`${service.origin}/healthz?name=Kavitha`);
    const lines = service.log();
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines)
      expect(line).toEqual(
        expect.objectContaining({
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          level: expect.stringMatching(/^(info|warn|error)$/),
          msg: expect.any(String),
        }),
      );
    expect(lines.find((l) => l.msg === "listening")).toMatchObject({ host: "127.0.0.1", port: service.port });
    expect(
      lines.filter((l) => l.msg === "request" && l.method === "POST" && l.path === "/api/email").map((l) => l.status),
    ).toEqual([201, 400]);
    expect(lines.some((l) => l.msg === "request" && l.path === "/healthz" && l.status === 200)).toBe(true);
    const output = service.proc.output();
    for (const personal of [enquiry.name, enquiry.email, enquiry.phone, enquiry.message, "Kavitha"]) {
      expect([personal, output.includes(personal)]).toEqual([personal, false]);
    }
    // Nor the client's address.
    for (const line of lines.filter((l) => l.msg === "request")) {
      expect(Object.keys(line).sort()).toEqual(
        expect.arrayContaining(["durationMs", "level", "method", "msg", "path", "status", "time"]),
      );
      expect(
        Object.keys(line).filter(
          (k) =>
            !["durationMs", "level", "method", "msg", "path", "status", "time", "requestId", "aborted"].includes(k),
        ),
      ).toEqual([]);
    }
  });
});

describe("settings", () => {
  test.each([
    ["ENQUIRY_RATE_LIMIT", "many"],
    ["ENQUIRY_PORT", "99999"],
    ["ENQUIRY_TRUST_PROXY", "perhaps"],
    ["ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS", "0"],
  ])(
    "an invalid %s (%s) stops it at start with exit code 1 and a message naming it",
    async (name, value) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-service-"));
      dirs.push(dataDir);
      const proc = spawnService({ [name]: value }, await freePort(), dataDir);
      const code = await Promise.race([proc.exited, stillRunningAfter(20_000)]);
      expect(code).toBe(1);
      const line = JSON.parse(proc.output().trim().split("\n").at(-1)!) as Record<string, string>;
      expect(line).toMatchObject({ level: "error", msg: "cannot start the enquiry service" });
      expect(line.error).toContain(name);
    },
    30_000,
  );

  test("an existing data folder readable by others is tightened to 700 at start, and the log says so", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "enquiry-service-"));
    dirs.push(base);
    const dataDir = path.join(base, "data");
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    // An empty file is an empty SQLite database: the store opens it as it is.
    fs.writeFileSync(path.join(dataDir, "enquiries.sqlite"), "");
    fs.chmodSync(path.join(dataDir, "enquiries.sqlite"), 0o644);
    const port = await freePort();
    const proc = spawnService({}, port, dataDir);
    await waitFor(`http://127.0.0.1:${port}/healthz`, 200, 300, () => proc.child.exitCode === null);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dataDir, "enquiries.sqlite")).mode & 0o777).toBe(0o600);
    const changes = proc
      .output()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, string>)
      .filter((l) => l.msg === "data folder permissions tightened");
    expect(changes.map((l) => l.change)).toEqual([
      `${dataDir}: permissions 755 tightened to 700`,
      `${path.join(dataDir, "enquiries.sqlite")}: permissions 644 tightened to 600`,
    ]);
    await stopProc(proc);
  }, 60_000);

  test("a port already in use stops it with exit code 1", async () => {
    const first = await startService();
    const proc = spawnService({}, first.port, first.dataDir);
    expect(await Promise.race([proc.exited, stillRunningAfter(20_000)])).toBe(1);
    expect(proc.output()).toContain("EADDRINUSE");
    await stopProc(first.proc);
  }, 60_000);

  test("behind a proxy (ENQUIRY_TRUST_PROXY=1) each client is the last X-Forwarded-For address", async () => {
    const service = await startService({ ENQUIRY_TRUST_PROXY: "1", ENQUIRY_RATE_LIMIT: "1" });
    let sent = 0;
    // Each a different enquiry: the same one again would be answered as a resend, whatever the limit.
    const post = (forwardedFor: string) =>
      request(`${service.origin}/api/email`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
        body: JSON.stringify({ ...enquiry, message: `${enquiry.message} ${(sent += 1)}` }),
      }).then((r) => r.status);
    expect(await post("203.0.113.7")).toBe(201);
    expect(await post("203.0.113.7")).toBe(429);
    // A forged first entry does not make a new client: the proxy's own (last) entry counts.
    expect(await post("198.51.100.1, 203.0.113.7")).toBe(429);
    expect(await post("203.0.113.8")).toBe(201);
    await stopProc(service.proc);
  }, 60_000);
});

describe("graceful shutdown", () => {
  test("SIGTERM while a request is in flight: it stops listening, finishes and stores that enquiry, then exits 0", async () => {
    const service = await startService();
    const slow = slowPost(service.port, body);
    await new Promise((resolve) => setTimeout(resolve, 300)); // the request has reached the handler
    service.proc.child.kill("SIGTERM");
    await until(() => service.log().some((l) => l.msg === "shutting down"), 10_000);
    expect(service.log().find((l) => l.msg === "shutting down")).toMatchObject({ reason: "SIGTERM", inFlight: 1 });
    // No new connections once shutdown began.
    await expect(request(`${service.origin}/healthz`, { timeoutMs: 2_000 })).rejects.toThrow(/ECONNREFUSED/);
    expect(service.proc.child.exitCode).toBeNull();

    slow.send();
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    const id = rawJson(answer).id;
    expect(await service.proc.exited).toBe(0);
    expect(service.stored().map((e) => e.id)).toEqual([id]);
    expect(service.log().at(-1)).toMatchObject({ msg: "stopped", clean: true });
  }, 60_000);

  test("a request that never finishes is cut off after ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS (exit code 1), storing nothing", async () => {
    const service = await startService({ ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS: "1" });
    const stalled = slowPost(service.port, body);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    service.proc.child.kill("SIGTERM");
    const code = await Promise.race([service.proc.exited, stillRunningAfter(15_000)]);
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(
      service
        .log()
        .some((l) => l.msg === "requests still in flight after the shutdown timeout: closing their connections"),
    ).toBe(true);
    stalled.socket.destroy();
    expect(service.stored()).toEqual([]);
  }, 60_000);

  test("SIGINT stops it the same way", async () => {
    const service = await startService();
    service.proc.child.kill("SIGINT");
    expect(await service.proc.exited).toBe(0);
    expect(service.log().find((l) => l.msg === "shutting down")).toMatchObject({ reason: "SIGINT", inFlight: 0 });
  }, 60_000);
});
