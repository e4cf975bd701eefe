/**
 * One request adapter, one error handling: the Gatsby Function (src/api/email.ts, behind a stand-in
 * for Gatsby's express helpers) and the standalone service's node:http edge answer what goes wrong
 * around the receiver with the same status, JSON body and connection handling: a body too large,
 * a body too slow, an internal error, a settings error; and a client gone mid-upload gets no answer,
 * stores nothing, logs no error and leaves the server serving.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { GatsbyFunctionRequest } from "gatsby";
import { createEmailFunction } from "../../src/api/email";
import { ConfigError } from "../../src/site-service/service/env";
import type { Receiver } from "../../src/site-service/enquiries/core/receiver";
import { createRequestAdapter, nodeReply } from "../../src/site-service/enquiries/http/adapter";
import { rawJson, request, slowPost } from "../deploy/support/http";
import { memoryLog, startReceiver, validEnquiry, withHelpers, type Harness } from "./support/harness";

const BODY_TIMEOUT_MS = 300;
type Edge = "gatsby-function" | "service";
interface Mounted {
  port: number;
  log: ReturnType<typeof memoryLog>;
  stop(): Promise<void>;
}

async function mount(edge: Edge, getReceiver: () => Receiver): Promise<Mounted> {
  const log = memoryLog();
  let handle: http.RequestListener;
  if (edge === "gatsby-function") {
    const fn = createEmailFunction(getReceiver, log, { bodyTimeoutMs: BODY_TIMEOUT_MS });
    handle = (req, res) => void fn(req as GatsbyFunctionRequest, withHelpers(res));
  } else {
    const adapt = createRequestAdapter({ receiver: getReceiver, log, bodyTimeoutMs: BODY_TIMEOUT_MS });
    handle = (req, res) => void adapt(req, nodeReply(res));
  }
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    log,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let core: Harness;
const mounted: Mounted[] = [];
beforeEach(async () => {
  core = await startReceiver();
});
afterEach(async () => {
  for (const m of mounted.splice(0)) await m.stop();
  await core.stop();
});

async function bothEdges(getReceiver: () => Receiver = () => core.receiver) {
  const edges = {
    "gatsby-function": await mount("gatsby-function", getReceiver),
    service: await mount("service", getReceiver),
  };
  mounted.push(...Object.values(edges));
  return edges;
}

const post = (port: number, body: string) =>
  request(`http://127.0.0.1:${port}/api/email`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
const answerOf = (a: { status: number; headers: http.IncomingHttpHeaders; body: Buffer }) => ({
  status: a.status,
  contentType: a.headers["content-type"],
  connection: a.headers.connection,
  body: JSON.parse(a.body.toString()) as unknown,
});

test("a body too large: 413 payload_too_large and the connection closed, from both", async () => {
  const edges = await bothEdges();
  const big = JSON.stringify({ ...validEnquiry, message: "x".repeat(20_000) });
  const answers = await Promise.all(Object.values(edges).map((e) => post(e.port, big).then(answerOf)));
  expect(answers[0]).toEqual({
    status: 413,
    contentType: "application/json; charset=utf-8",
    connection: "close",
    body: { error: "payload_too_large", message: "The request body is larger than 16384 bytes." },
  });
  expect(answers[1]).toEqual(answers[0]);
});

test("a body too slow: 408 request_timeout and the connection closed, from both; nothing stored", async () => {
  const edges = await bothEdges();
  const raw = await Promise.all(Object.values(edges).map((e) => slowPost(e.port, JSON.stringify(validEnquiry)).closed));
  for (const answer of raw) {
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(rawJson(answer)).toEqual({ error: "request_timeout", message: "The request body did not arrive in time." });
  }
  expect(await core.storedLines()).toEqual([]);
});

test.each<[string, () => Receiver, object, RegExp]>([
  [
    "an internal error",
    () => ({ ...core.receiver, handleEnquiry: () => Promise.reject(new Error("disk on fire")) }),
    { error: "internal_error", message: "Something went wrong; please try again later." },
    /disk on fire/,
  ],
  [
    "a settings error",
    () => {
      throw new ConfigError('ENQUIRY_RATE_LIMIT must be a whole number above 0 (got "lots")');
    },
    { error: "server_misconfigured", message: "The enquiry service is not configured correctly." },
    /ENQUIRY_RATE_LIMIT/,
  ],
])("%s: 500 with its JSON, logged, from both", async (_label, getReceiver, body, logged) => {
  const edges = await bothEdges(getReceiver);
  for (const edge of Object.values(edges)) {
    expect(answerOf(await post(edge.port, JSON.stringify(validEnquiry)))).toEqual({
      status: 500,
      contentType: "application/json; charset=utf-8",
      connection: "close",
      body,
    });
    expect(edge.log.lines.filter((l) => l.startsWith("error: enquiry receiver:"))).toEqual([
      expect.stringMatching(logged),
    ]);
  }
});

test("a client gone mid-upload: no answer, nothing stored, no error logged; the next request is served", async () => {
  const edges = await bothEdges();
  for (const edge of Object.values(edges)) {
    const upload = slowPost(edge.port, JSON.stringify(validEnquiry));
    await new Promise((resolve) => setTimeout(resolve, 50));
    upload.socket.destroy();
    expect(await upload.closed).toBe("");
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(edge.log.lines).toEqual([]);
    expect((await post(edge.port, JSON.stringify(validEnquiry))).status).toBeLessThan(300);
  }
  expect(await core.storedLines()).toHaveLength(1);
});
