/**
 * The service refuses, on its own, a path that another part of the chain could read as a different
 * one: `.` and `..` segments, an encoded /, \ or . in either case, a raw \. Sent as raw request
 * lines (node:http's request with a path string: fetch and URL would resolve the dots first), each
 * gets 400 and a JSON error before any route is chosen, so an enquiry sent through the inbox's path
 * is not stored; plain paths, and dots in a query string, are answered as before.
 */
import http from "node:http";
import { engineUnderTest } from "./support/engines";
import { serviceUnderTest } from "./support/service-under-test";
import { validEnquiry } from "./support/harness";
import { ORIGIN } from "./support/inbox-client";

interface RawAnswer {
  status: number;
  type: string | undefined;
  json: Record<string, unknown>;
}

/** One request with the path exactly as given. */
function raw(port: number, method: string, path: string, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: body === undefined ? {} : { "content-type": "application/json", origin: ORIGIN },
        timeout: 10_000,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => {
          let json: Record<string, unknown> = {};
          try {
            json = JSON.parse(text) as Record<string, unknown>;
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, type: res.headers["content-type"], json });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer to ${method} ${path}`)));
    req.on("error", reject);
    req.end(body);
  });
}

describe("paths with dot segments or encoded separators", () => {
  const engine = engineUnderTest("sqlite");
  const start = serviceUnderTest(engine);

  test("400 with a JSON error before any routing; plain paths and dots in a query are answered as before", async () => {
    const { service, port } = await start();
    const enquiryBody = JSON.stringify(validEnquiry);
    const refused: Array<[string, string, RegExp]> = [
      ["POST", "/inbox/api/../../api/email", /a \. or \.\. segment/],
      ["POST", "/inbox/api/%2e%2e/%2E%2E/api/email", /an encoded/],
      ["POST", "/api/./email", /a \. or \.\. segment/],
      ["POST", "/api%2femail", /an encoded/],
      ["POST", "/api%2Femail", /an encoded/],
      ["POST", "/inbox/api/..%2fapi/email", /an encoded/],
      ["GET", "/inbox%5capi/me", /an encoded/],
      ["GET", "/inbox%5Capi/me", /an encoded/],
      ["GET", "/inbox\\api/me", /a \\/],
      ["GET", "/healthz/..", /a \. or \.\. segment/],
      ["GET", "/./healthz", /a \. or \.\. segment/],
      ["GET", "/inbox/api/enquiries/%2e", /an encoded/],
    ];
    for (const [method, path, problem] of refused) {
      const answer = await raw(port, method, path, method === "POST" ? enquiryBody : undefined);
      expect([path, answer.status, answer.type]).toEqual([path, 400, "application/json; charset=utf-8"]);
      expect(answer.json).toEqual({ error: "bad_path", message: expect.stringMatching(problem) });
    }
    expect(await service.receiver.store.storedLines()).toEqual([]);

    // Plain paths: a dot inside a segment, dots after the query's ?, an encoded character other than those.
    expect((await raw(port, "GET", "/healthz?next=../../x%2F")).status).toBe(200);
    expect((await raw(port, "GET", "/inbox/api/me")).status).toBe(401);
    expect((await raw(port, "GET", "/no.such...path")).status).toBe(404);
    expect((await raw(port, "GET", "/inbox/api/enquiries/enq%2D1")).status).toBe(401);
    const stored = await raw(port, "POST", "/api/email", enquiryBody);
    expect(stored.status).toBe(201);
    expect(await service.receiver.store.storedLines()).toHaveLength(1);
  });
});
