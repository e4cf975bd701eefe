/**
 * The Gatsby Function adapter (src/api/email.ts) maps a request to the core and the answer back:
 * mounted in a real node:http server behind a stand-in for Gatsby's express helpers, with the body
 * stream unread as Gatsby leaves it under the function's bodyParser config.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import type { GatsbyFunctionRequest, GatsbyFunctionResponse } from "gatsby";
import emailFunction, { config, createEmailFunction } from "../../src/api/email";
import { ConfigError } from "../../src/site-service/service/env";
import type { Receiver } from "../../src/site-service/enquiries/core/receiver";
import { anotherEnquiry, memoryLog, startReceiver, validEnquiry, withHelpers, type Harness } from "./support/harness";

let core: Harness;
let server: http.Server;
let url: string;

function mount(getReceiver: () => Receiver): Promise<void> {
  const fn = createEmailFunction(getReceiver, memoryLog());
  server = http.createServer((req, res) => void fn(req as GatsbyFunctionRequest, withHelpers(res)));
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/email`;
      resolve();
    }),
  );
}

beforeEach(async () => {
  core = await startReceiver();
  await mount(() => core.receiver);
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await core.stop();
});

const post = (
  body: BodyInit,
  headers: Record<string, string> = { "content-type": "application/json" },
  method = "POST",
) => fetch(url, { method, headers, body: method === "GET" ? undefined : body });

test("the default export is the function and the config keeps Gatsby's body parsers off", () => {
  expect(typeof emailFunction).toBe("function");
  const parsers = config.bodyParser!;
  for (const name of ["json", "text", "raw", "urlencoded"] as const) {
    expect(parsers[name]?.type).toBe("application/x-cyrus-not-parsed");
  }
});

test("a valid enquiry: 201, JSON headers from the core, one stored line", async () => {
  const res = await post(JSON.stringify(validEnquiry));
  expect(res.status).toBe(201);
  expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = (await res.json()) as { ok: boolean; id: string };
  expect(body.ok).toBe(true);
  expect(await core.storedLines()).toEqual([expect.objectContaining({ id: body.id, ...validEnquiry })]);
});

test("refusals pass through with their status, headers and body", async () => {
  const get = await post("", {}, "GET");
  expect(get.status).toBe(405);
  expect(get.headers.get("allow")).toBe("POST");
  expect((await post("name=x", { "content-type": "text/plain" })).status).toBe(415);
  const big = await post(JSON.stringify({ ...validEnquiry, message: "x".repeat(20_000) }));
  expect(big.status).toBe(413);
  expect(big.headers.get("connection")).toBe("close");
  const bad = await post("{oops");
  expect(bad.status).toBe(400);
  expect(await bad.json()).toMatchObject({ error: "invalid_json" });
  expect(await core.storedLines()).toEqual([]);
});

test("the client address is the socket's, so the rate limit applies", async () => {
  await core.stop();
  core = await startReceiver({ ENQUIRY_RATE_LIMIT: "1" });
  expect((await post(JSON.stringify(anotherEnquiry(1)))).status).toBe(201);
  const limited = await post(JSON.stringify(anotherEnquiry(2)));
  expect(limited.status).toBe(429);
  expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
});

test("a body some host parsed already (req.body) is used instead of the spent stream", async () => {
  const req = Object.assign(Readable.from([]), {
    method: "POST",
    headers: { "content-type": "application/json" },
    socket: { remoteAddress: "192.0.2.7" },
    body: { ...validEnquiry },
  });
  req.resume();
  await new Promise((resolve) => req.on("end", resolve));
  const sent: { status?: number; headers: Record<string, string>; body?: string } = { headers: {} };
  const res = {
    status(code: number) {
      sent.status = code;
      return res;
    },
    setHeader(name: string, value: string) {
      sent.headers[name] = value;
    },
    send(body: string) {
      sent.body = body;
    },
  };
  const fn = createEmailFunction(() => core.receiver, memoryLog());
  await fn(req as unknown as GatsbyFunctionRequest, res as unknown as GatsbyFunctionResponse);
  expect(sent.status).toBe(201);
  expect(sent.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(JSON.parse(sent.body!)).toMatchObject({ ok: true });
  expect(await core.storedLines()).toHaveLength(1);
});

test("a settings error gives 500 server_misconfigured, not a crash", async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await mount(() => {
    throw new ConfigError('ENQUIRY_RATE_LIMIT must be a whole number above 0 (got "lots")');
  });
  const res = await post(JSON.stringify(validEnquiry));
  expect(res.status).toBe(500);
  expect(await res.json()).toMatchObject({ error: "server_misconfigured" });
});
