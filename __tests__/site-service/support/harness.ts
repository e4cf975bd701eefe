/**
 * A receiver mounted in a real node:http server on 127.0.0.1 with its own temporary data folder,
 * through the request adapter the Gatsby Function and the standalone service share (replying as
 * the service does, trusting a proxy as the environment says), and helpers to post to it and read
 * what it stored.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import type { GatsbyFunctionResponse } from "gatsby";
import { loadConfig } from "../../../src/site-service/enquiries/core/config";
import { type Env } from "../../../src/site-service/service/env";
import { createRequestAdapter, nodeReply } from "../../../src/site-service/enquiries/http/adapter";
import { loadProxySettings } from "../../../src/site-service/service/proxy";
import {
  createReceiver,
  type Logger,
  type Receiver,
  type ReceiverOptions,
} from "../../../src/site-service/enquiries/core/receiver";

export const projectRoot = path.resolve(__dirname, "../../..");

export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface Harness {
  url: string;
  dir: string;
  receiver: Receiver;
  log: Logger & { lines: string[] };
  post(body: unknown, headers?: Record<string, string>, method?: string): Promise<Answer>;
  /** The stored lines (the enquiries' JSON column), oldest first, as the store gives them. */
  storedLines(): Promise<unknown[]>;
  stop(): Promise<void>;
}

export function tempDir(prefix = "enquiries-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Records what the receiver logs instead of printing it. */
export function memoryLog(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push(`${level}: ${args.join(" ")}`);
  return { lines, info: push("info"), warn: push("warn"), error: push("error") };
}

export const validEnquiry = {
  name: "Priya Raman",
  phone: "+91 44 2345 6789",
  email: "priya@example.in",
  message: "We are planning a phase II study and would like a quote.",
};

/** A valid enquiry of its own: the receiver stores an identical one only once a day (a resend). */
/** The keys of a stored line (the enquiries' JSON column), in their order: the format's version first. */
export const storedLineKeys = [
  "v",
  "id",
  "receivedAt",
  "name",
  "phone",
  "email",
  "message",
  "screening",
  "delivery",
] as const;

export const anotherEnquiry = (n: number | string) => ({ ...validEnquiry, message: `${validEnquiry.message} (${n})` });

/**
 * env: settings as the process environment would give them (a generous rate limit by default);
 * prepare: runs on the data folder's path before the receiver opens its store there.
 */
export async function startReceiver(
  env: Env = {},
  options: ReceiverOptions = {},
  prepare?: (dataDir: string) => void,
): Promise<Harness> {
  const dir = tempDir();
  const settings = { ENQUIRY_RATE_LIMIT: "10000", ...env, ENQUIRY_DATA_DIR: path.join(dir, "data") };
  prepare?.(settings.ENQUIRY_DATA_DIR);
  const config = loadConfig(settings, projectRoot);
  const proxy = loadProxySettings(settings);
  const log = memoryLog();
  const receiver = createReceiver(config, { log, ...options });
  const adaptRequest = createRequestAdapter({ receiver: () => receiver, proxy: () => proxy, log });
  const server = http.createServer((req, res) => void adaptRequest(req, nodeReply(res)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/email`;
  return {
    url,
    dir: config.dataDir,
    receiver,
    log,
    async post(body, headers = {}, method = "POST") {
      const payload =
        typeof body === "string" ? body : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body);
      const res = await fetch(url, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: method === "GET" || method === "HEAD" ? undefined : payload,
      });
      const text = await res.text();
      return {
        status: res.status,
        headers: res.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    storedLines: () => receiver.store.storedLines(),
    async stop() {
      await receiver.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A node:http response with the res.status/res.send that Gatsby's Functions get from express. */
export function withHelpers(res: http.ServerResponse): GatsbyFunctionResponse {
  const helped = res as GatsbyFunctionResponse;
  helped.status = (code: number) => {
    res.statusCode = code;
    return helped;
  };
  helped.send = ((body: string) => res.end(body)) as GatsbyFunctionResponse["send"];
  return helped;
}

/** Registers what a test starts, to be stopped after it (last started, first stopped), however it ended. */
export function stoppedAfterEach(): <T extends { stop(): Promise<void> }>(started: T) => T {
  const running: Array<{ stop(): Promise<void> }> = [];
  afterEach(async () => {
    for (const thing of running.splice(0).reverse()) await thing.stop();
  });
  return (started) => {
    running.push(started);
    return started;
  };
}
