/**
 * nginx's per-client limits, as render.ts writes them by default (a client here is 127.0.0.1):
 * - /api/: 10 requests a minute with bursts of 20, invalid ones included, then a clean 429 (JSON
 *   with Retry-After for the script, 303 to /contact/error for a form posted without JavaScript),
 *   whatever raw path ("..", %2e, %2f) the request took to land there;
 * - the enquiry inbox (pages and API): a zone of its own, sized for an office's staff behind one
 *   address (900 a minute with bursts of 300), then a JSON 429 with the inbox's headers;
 * - /api/: 4 requests in progress at once; the 5th is refused at once;
 * - the whole site: requests in progress per client (--conn-limit), then a small HTML 429 page.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { INBOX_CSP } from "../../deploy/nginx/render";
import { request } from "./support/http";
import { requestRawPath } from "./support/raw-path";
import { sleep, until } from "./support/until";
import { LIFTED_LIMITS, startStack, type Stack } from "./support/stack";

const invalid = (stack: Stack) =>
  request(`${stack.origin}/api/email`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });

describe("production defaults", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ renderArgs: [] });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  test("past the burst, invalid requests to /api/ get nginx's 429 and never reach the service", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i += 1) statuses.push((await invalid(stack)).status);
    // One request, then a burst of 20, pass at once; the rest wait for the 10-a-minute rate.
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    const handled = () => stack.serviceLog().filter((l) => l.msg === "request" && l.path === "/api/email").length;
    const passed = statuses.filter((s) => s === 400).length;
    // The service logs a request as it answers it: the line can reach this process's pipe just after
    // the answer reached the client (20 of 21 once, with both cores busy). Then a moment for any line
    // of a refused request, which must never come.
    await until(() => handled() >= passed, 5_000, `the service's log of the ${passed} requests it answered`);
    await sleep(300);
    expect(handled()).toBe(passed);

    const refused = await invalid(stack);
    expect(refused.status).toBe(429);
    expect(refused.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(refused.headers["retry-after"]).toBe("60");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(JSON.parse(refused.body.toString())).toMatchObject({ error: "rate_limited" });

    const form = await request(`${stack.origin}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=x",
    });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe("/contact/error");

    // Pages are not limited by the API's rate.
    expect((await request(`${stack.origin}/contact`)).status).toBe(200);
  }, 60_000);

  test("a raw path that lands in /api/ through another location is refused by /api/'s limit too", async () => {
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 30) statuses.push((await invalid(stack)).status);
    expect(statuses.at(-1)).toBe(429);
    const handled = () => stack.serviceLog().filter((l) => l.msg === "request").length;
    await sleep(300);
    const before = handled();
    for (const raw of ["/inbox/api/..%2f..%2fapi/email", "/inbox/api/../../api/email", "/oauth/%2e%2e/api/email"]) {
      const res = await requestRawPath(stack.origin, raw, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect([raw, res.status]).toEqual([raw, 429]);
      expect(JSON.parse(res.body.toString())).toMatchObject({ error: "rate_limited" });
    }
    await sleep(300);
    expect(handled()).toBe(before);
  }, 60_000);

  test("the inbox has its own zone: past the form's limit, the inbox's API and pages from the same address are still answered", async () => {
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 30) statuses.push((await invalid(stack)).status);
    expect(statuses.at(-1)).toBe(429);
    // More than the form's 1 + 20 at once: a few people's polls and clicks.
    const api: number[] = [];
    for (let i = 0; i < 40; i += 1) api.push((await request(`${stack.origin}/inbox/api/counts`)).status);
    expect(api).toEqual(Array(40).fill(401));
    const pages: number[] = [];
    for (const p of ["/inbox", "/inbox/", "/inbox/welcome"]) pages.push((await request(`${stack.origin}${p}`)).status);
    expect(pages).toEqual([301, 200, 200]);
    // A raw path that lands in the inbox is the inbox's too, and the form's limit still refuses.
    expect((await requestRawPath(stack.origin, "/api/..%2finbox/api/counts")).status).toBe(401);
    expect((await invalid(stack)).status).toBe(429);
  }, 60_000);
});

describe("requests in progress", () => {
  let stack: Stack;
  beforeAll(async () => {
    // The API's rate lifted, its default of 4 at once kept; one request at a time for the rest of the site.
    stack = await startStack({
      renderArgs: [...LIFTED_LIMITS.slice(0, 4), "--conn-limit", "1", "--api-timeout", "5"],
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  test("a 5th enquiry request while 4 wait for a stalled service is refused at once with 429", async () => {
    const service = stack.service().child;
    service.kill("SIGSTOP");
    try {
      const waiting = Array.from({ length: 4 }, () => invalid(stack));
      await new Promise((resolve) => setTimeout(resolve, 500));
      const started = Date.now();
      const fifth = await invalid(stack);
      expect(fifth.status).toBe(429);
      expect(Date.now() - started).toBeLessThan(2_000);
      // The four waited for the service until nginx's timeout: 503 (its JSON, "try again").
      expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([503, 503, 503, 503]);
    } finally {
      service.kill("SIGCONT");
    }
  }, 60_000);

  test("past --conn-limit, a page is a small HTML 429, not a reset or nginx's default page", async () => {
    // A download the client does not read stays in progress: a file larger than the socket buffers.
    fs.writeFileSync(path.join(stack.root, "large.bin"), Buffer.alloc(64 * 1024 * 1024));
    const slow = net.connect(Number(new URL(stack.origin).port), "127.0.0.1");
    await new Promise<void>((resolve) => slow.once("connect", () => resolve()));
    slow.write("GET /large.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    slow.pause();
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      const page = await request(`${stack.origin}/home`);
      expect(page.status).toBe(429);
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(page.headers["retry-after"]).toBe("10");
      expect(page.body.toString()).toContain("<h1>Too many requests</h1>");
      expect(page.headers["content-security-policy"]).toBeTruthy();
    } finally {
      slow.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await request(`${stack.origin}/home`)).status).toBe(200);
  }, 60_000);
});

describe("the inbox's own zone, small enough to reach", () => {
  let stack: Stack;
  beforeAll(async () => {
    // 1 a minute with bursts of 3; the site's default of requests at once per address. (Under one at a
    // time, a request whose connection nginx has not yet let go of counts against the next: a 429 of
    // the connection limit, not of this zone, on a loaded machine.)
    stack = await startStack({
      renderArgs: [...LIFTED_LIMITS.slice(0, 4), "--inbox-rate", "1r/m", "--inbox-burst", "3"],
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 30_000);

  test("past the inbox's own burst, its API answers a JSON 429 with the inbox's headers, the message the inbox shows", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await request(`${stack.origin}/inbox/api/counts`)).status);
    expect(statuses).toEqual([401, 401, 401, 401]);
    const refused = await request(`${stack.origin}/inbox/api/counts`);
    expect(refused.status).toBe(429);
    expect(refused.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(refused.body.toString())).toEqual({
      error: "rate_limited",
      message: "Too many requests from this address; please try again in a moment.",
    });
    expect(refused.headers["retry-after"]).toBe("10");
    expect(refused.headers["cache-control"]).toBe("no-store");
    expect(refused.headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(refused.headers["referrer-policy"]).toBe("no-referrer");
    expect(refused.headers["content-security-policy"]).toBe(INBOX_CSP);
    // The page is in the same zone; the form's API is not (lifted here).
    expect((await request(`${stack.origin}/inbox/`)).status).toBe(429);
    expect((await invalid(stack)).status).toBe(400);
  }, 30_000);
});
