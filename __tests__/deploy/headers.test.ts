/**
 * The site behind nginx with the project's configuration (deploy/nginx) and the standalone enquiry
 * service: every route at its exact path, the / redirect, the 404 page, caching, compression, the
 * security headers on HTML, assets, page-data and the API, and raw paths ("..", %2e, %2f) that land in
 * a location other than the one they start in: that location's headers, and the service is sent the
 * path nginx matched, never the raw one.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { INBOX_CSP } from "../../deploy/nginx/render";
import { speculationRulesText } from "../../src/utils/speculation-rules";
import { routes } from "../support/content";
import { headerCount, parseCsp, request, type RawAnswer } from "./support/http";
import { requestRawPath } from "./support/raw-path";
import { projectRoot, startStack, type Stack } from "./support/stack";
import { until } from "./support/until";

let stack: Stack;
let homeHtml: string;

beforeAll(async () => {
  stack = await startStack();
  homeHtml = fs.readFileSync(path.join(stack.root, "home", "index.html"), "utf8");
}, 120_000);

afterAll(async () => {
  await stack?.stop();
}, 30_000);

const get = (p: string, headers: Record<string, string> = {}) => request(`${stack.origin}${p}`, { headers });
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=0, must-revalidate";
const firstMatch = (pattern: RegExp) => {
  const m = homeHtml.match(pattern);
  if (!m) throw new Error(`home/index.html has no match for ${pattern}`);
  return m[1]!;
};

describe("routes", () => {
  test.each(routes)("%s is answered 200 at its exact path, with its page", async (route) => {
    const res = await get(route);
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body.equals(fs.readFileSync(path.join(stack.root, route, "index.html")))).toBe(true);
  });

  test("/ is answered 301 to /home (query kept)", async () => {
    const res = await get("/");
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe("/home");
    expect((await get("/?utm_source=x")).headers.location).toBe("/home?utm_source=x");
  });

  test.each([
    ["/home/", "/home"],
    ["/services/study-design/", "/services/study-design"],
    ["/home/index.html", "/home"],
    // The build's own index.html is the page that forwards / to /home.
    ["/index.html", "/home"],
    // merged slashes: never a redirect to another host
    ["//evil.example/", "/evil.example"],
    ["/%2F%2Fevil.example/", "/evil.example"],
  ])("%s is answered 301 to %s", async (from, to) => {
    const res = await get(from);
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe(to);
  });

  test.each(["/no-such-page", "/services/no-such-service", "/404", "/404.html", "/.git/config", "/home/missing.js"])(
    "%s is answered 404 with the site's 404 page",
    async (route) => {
      const res = await get(route);
      expect(res.status).toBe(404);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.body.equals(fs.readFileSync(path.join(stack.root, "404.html")))).toBe(true);
      expect(res.headers["cache-control"]).toBe(REVALIDATE);
      expectSecurityHeaders(res);
    },
  );
});

describe("a POST to a page", () => {
  test.each([
    ["/contact", "/contact"],
    ["/services/study-design", "/services/study-design"],
    ["/contact?x=1", "/contact"],
  ])("%s is answered 303 to %s, the page itself (not nginx's bare 405)", async (from, to) => {
    const res = await request(`${stack.origin}${from}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "name=x",
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(to);
    expectSecurityHeaders(res);
    expect((await get(to)).status).toBe(200);
  });

  test("a crafted path never becomes a redirect to another host", async () => {
    const res = await request(`${stack.origin}//home`, { method: "POST", body: "x" });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/home");
  });
});

describe("other methods on a page", () => {
  const pages = ["/contact", "/home", "/services/study-design", "/page-data/home/page-data.json"];
  test.each(["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"].flatMap((method) => pages.map((page) => [method, page])))(
    "%s %s is answered 405 with Allow: GET, HEAD (not a 303)",
    async (method, page) => {
      const res = await request(`${stack.origin}${page}`, { method });
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe("GET, HEAD");
      expect(headerCount(res, "allow")).toBe(1);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers["cache-control"]).toBe("no-store");
      expectSecurityHeaders(res);
    },
  );

  test("GET and HEAD are unchanged; a POST keeps its 303 and claims no Allow", async () => {
    for (const method of ["GET", "HEAD"]) {
      const res = await request(`${stack.origin}/contact`, { method });
      expect([method, res.status, res.headers.allow]).toEqual([method, 200, undefined]);
    }
    const post = await request(`${stack.origin}/contact`, { method: "POST", body: "x" });
    expect([post.status, post.headers.location, post.headers.allow]).toEqual([303, "/contact", undefined]);
  });

  test("on the enquiry API: TRACE is refused by nginx, other methods by the service, with Allow: POST", async () => {
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH"]) {
      const res = await request(`${stack.origin}/api/email`, { method });
      expect([method, res.status, res.headers.allow]).toEqual([method, 405, "POST"]);
      expect(headerCount(res, "allow")).toBe(1);
    }
  });
});

describe("caching", () => {
  test.each<{ label: string; url: () => string; expected: string }>([
    { label: "an HTML page", url: () => "/home", expected: REVALIDATE },
    { label: "page-data", url: () => "/page-data/home/page-data.json", expected: REVALIDATE },
    { label: "app-data", url: () => "/page-data/app-data.json", expected: REVALIDATE },
    { label: "the manifest", url: () => "/manifest.webmanifest", expected: REVALIDATE },
    { label: "robots.txt", url: () => "/robots.txt", expected: REVALIDATE },
    { label: "the sitemap", url: () => "/sitemap-index.xml", expected: REVALIDATE },
    {
      label: "the carousel's island (content hash in its name)",
      url: () => firstMatch(/src="(\/islands\/carousel-[0-9A-Z]{8}\.js)"/),
      expected: IMMUTABLE,
    },
    {
      label: "the site's stylesheet",
      url: () => firstMatch(/data-href="(\/[^"]+\.[0-9a-f]{20}\.css)"/),
      expected: IMMUTABLE,
    },
    {
      label: "an image under /static/",
      url: () => firstMatch(/src="(\/static\/[0-9a-f]{32}\/[^"]+)"/),
      expected: IMMUTABLE,
    },
    {
      label: "an icon with its ?v= version",
      url: () => firstMatch(/href="(\/icons\/icon-48x48\.png\?v=[0-9a-f]{32})"/),
      expected: IMMUTABLE,
    },
    { label: "an icon without its version", url: () => "/icons/icon-48x48.png", expected: REVALIDATE },
  ])("$label: Cache-Control $expected", async ({ url, expected }) => {
    const res = await get(url());
    expect(res.status).toBe(200);
    expect(res.headers["cache-control"]).toBe(expected);
    expect(headerCount(res, "cache-control")).toBe(1);
    expectSecurityHeaders(res);
  });

  test("a page is revalidated with its ETag: 304 when unchanged", async () => {
    const first = await get("/home");
    expect(first.headers.etag).toBeTruthy();
    const again = await get("/home", { "if-none-match": first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.headers["cache-control"]).toBe(REVALIDATE);
  });
});

describe("compression", () => {
  test.each<{ label: string; url: () => string }>([
    { label: "HTML", url: () => "/home" },
    { label: "JavaScript", url: () => firstMatch(/src="(\/islands\/carousel-[0-9A-Z]{8}\.js)"/) },
    { label: "CSS", url: () => firstMatch(/data-href="(\/[^"]+\.[0-9a-f]{20}\.css)"/) },
    { label: "page-data JSON", url: () => "/page-data/home/page-data.json" },
    { label: "the manifest", url: () => "/manifest.webmanifest" },
  ])("$label is sent gzip-compressed to a client that accepts it, and plain to one that does not", async ({ url }) => {
    const plain = await get(url());
    const gzipped = await get(url(), { "accept-encoding": "gzip" });
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gzipped.headers.vary).toMatch(/Accept-Encoding/i);
    expect(zlib.gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(gzipped.body.length).toBeLessThan(plain.body.length);
    expect(plain.headers["content-encoding"]).toBeUndefined();
  });

  test("the .gz and .br copies render.ts made are what is sent: nothing is compressed per request", async () => {
    const brotli = fs.readFileSync(path.join(stack.confDir, "cyrus.conf"), "utf8").includes("brotli_static on;");
    expect(brotli).toBe(fs.existsSync("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"));
    for (const url of [
      "/home",
      firstMatch(/src="(\/islands\/carousel-[0-9A-Z]{8}\.js)"/),
      "/page-data/home/page-data.json",
    ]) {
      const file = path.join(stack.root, url === "/home" ? "home/index.html" : url);
      const gzipped = await get(url, { "accept-encoding": "gzip" });
      expect(gzipped.headers["content-encoding"]).toBe("gzip");
      expect(gzipped.body.equals(fs.readFileSync(`${file}.gz`))).toBe(true);
      if (brotli) {
        const br = await get(url, { "accept-encoding": "gzip, deflate, br" });
        expect(br.headers["content-encoding"]).toBe("br");
        expect(br.body.equals(fs.readFileSync(`${file}.br`))).toBe(true);
        expect(zlib.brotliDecompressSync(br.body).equals(fs.readFileSync(file))).toBe(true);
      }
    }
  });

  test("images are not compressed again", async () => {
    const res = await get(firstMatch(/src="(\/static\/[0-9a-f]{32}\/[^"]+\.(?:png|jpg))"/), {
      "accept-encoding": "gzip",
    });
    expect(res.headers["content-encoding"]).toBeUndefined();
  });
});

/** Every security header, exactly once, with a strict value. */
function expectSecurityHeaders(res: RawAnswer): void {
  const hsts = res.headers["strict-transport-security"];
  expect(hsts).toMatch(/^max-age=(\d+); includeSubDomains$/);
  expect(Number(hsts!.match(/max-age=(\d+)/)![1])).toBeGreaterThanOrEqual(31_536_000);
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const permissions = String(res.headers["permissions-policy"]);
  for (const feature of ["camera", "microphone", "geolocation", "payment", "usb"])
    expect(permissions).toContain(`${feature}=()`);
  expect(res.headers["x-frame-options"]).toBe("DENY");
  // No other window keeps a handle on the site's pages (only the studio relaxes it: admin-headers.test.ts).
  expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin");
  for (const name of [
    "cross-origin-opener-policy",
    "strict-transport-security",
    "x-content-type-options",
    "referrer-policy",
    "permissions-policy",
    "content-security-policy",
  ]) {
    expect([name, headerCount(res, name)]).toEqual([name, 1]);
  }
  const csp = parseCsp(String(res.headers["content-security-policy"]));
  const scriptSrc = csp.get("script-src")!;
  expect(scriptSrc).toContain("'self'");
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  expect(scriptSrc.filter((s) => s.startsWith("'sha256-")).length).toBeGreaterThan(0);
  expect(csp.get("default-src")).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'self'"]);
  expect(csp.get("form-action")).toEqual(["'self'"]);
  expect(csp.get("connect-src")).toEqual(["'self'"]);
  expect(csp.get("img-src")).toEqual(["'self'", "data:"]);
  expect(csp.get("frame-src")).toEqual(["https://www.openstreetmap.org"]);
  expect(res.headers.server).toBe("nginx"); // no version
}

describe("security headers", () => {
  test("on HTML, an asset, page-data, a redirect and the API", async () => {
    const html = await get("/home");
    const asset = await get(firstMatch(/src="(\/islands\/carousel-[0-9A-Z]{8}\.js)"/));
    const pageData = await get("/page-data/home/page-data.json");
    const redirect = await get("/");
    const health = await get("/api/health");
    const enquiry = await request(`${stack.origin}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: stack.origin },
      body: JSON.stringify({ name: "Header Test", email: "header@example.in", message: "Checking the headers." }),
    });
    for (const res of [html, asset, pageData, redirect, health, enquiry]) expectSecurityHeaders(res);
    expect(health.status).toBe(200);
    expect(enquiry.status).toBe(201);
    expect(enquiry.headers["cache-control"]).toBe("no-store");
    expect(headerCount(enquiry, "cache-control")).toBe(1);
  });

  test("script-src lists exactly the hashes of this build's inline scripts (csp-hashes.ts over the served root)", async () => {
    const csp = parseCsp(String((await get("/home")).headers["content-security-policy"]));
    const allowed = csp
      .get("script-src")!
      .filter((s) => s.startsWith("'sha256-"))
      .sort();
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", "deploy/csp-hashes.ts", "--public", stack.root, "--json"],
      {
        cwd: projectRoot,
        encoding: "utf8",
      },
    );
    expect(run.status).toBe(0);
    const computed = JSON.parse(run.stdout) as { hashes: string[]; files: number; inlineScripts: number };
    expect(computed.files).toBeGreaterThanOrEqual(routes.length + 2);
    // Every route's speculation rules (the studio's page has none of the site's scripts).
    expect(computed.inlineScripts).toBeGreaterThanOrEqual(routes.length);
    expect(allowed).toEqual(computed.hashes);
    // The speculation rules of every page are the one inline script of the build: the islands are
    // modules from the site's own origin ('self'), their data JSON that CSP does not govern.
    const rules = createHash("sha256").update(speculationRulesText()).digest("base64");
    expect(allowed).toEqual([`'sha256-${rules}'`]);
    expect(csp.get("script-src")).toContain("'self'");
    expect(csp.get("script-src")).not.toContain("'unsafe-inline'");
    // Whether Chromium agrees (no violation on any page) is checked by __tests__/deploy/browser.
  });
});

describe("the enquiry service behind /api/", () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    request(`${stack.origin}/api/email`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  test("a browser's same-origin post is stored; the service sees the client's host and address", async () => {
    const res = await post(
      JSON.stringify({ name: "Same Origin", email: "same@example.in", message: "Through nginx." }),
      {
        origin: stack.origin,
        "sec-fetch-site": "same-origin",
      },
    );
    expect(res.status).toBe(201);
    const { id } = JSON.parse(res.body.toString()) as { id: string };
    expect(stack.stored().filter((e) => e.id === id)).toHaveLength(1);
  });

  test("a cross-site post is refused by the service (403, JSON)", async () => {
    const res = await post(JSON.stringify({ name: "X", email: "x@example.in", message: "x" }), {
      origin: "https://evil.example",
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: "cross_site_request" });
    expectSecurityHeaders(res);
  });

  test("the service's own refusals come through (415), and a body over nginx's limit gets a JSON 413", async () => {
    const wrongType = await post("name=x", { "content-type": "text/plain" });
    expect(wrongType.status).toBe(415);
    const huge = await post(JSON.stringify({ name: "X", email: "x@example.in", message: "x".repeat(100_000) }));
    expect(huge.status).toBe(413);
    expect(huge.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(huge.body.toString())).toMatchObject({ error: "payload_too_large" });
  });

  test("the form posted by a browser without JavaScript: 303 to the result page, stored once", async () => {
    const message = `Form through nginx ${Date.now()}`;
    const res = await request(`${stack.origin}/api/email`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: stack.origin,
        "sec-fetch-site": "same-origin",
      },
      body: new URLSearchParams({ name: "No Script", phone: "", email: "noscript@example.in", message }).toString(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe("/contact/sent");
    expectSecurityHeaders(res);
    expect(stack.stored().filter((e) => e.message === message)).toHaveLength(1);
    const page = await get("/contact/sent");
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain("Your message has been sent successfully!");
  });

  test("unknown API paths are the service's JSON 404", async () => {
    const res = await get("/api/nothing-here");
    expect(res.status).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expectSecurityHeaders(res);
  });

  test("the service logs one JSON line per request, without personal data or query strings", async () => {
    await get("/api/health?email=private%40example.in");
    const lines = stack.serviceLog().filter((l) => l.msg === "request" && String(l.path).startsWith("/api/"));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toEqual(
        expect.objectContaining({
          time: expect.any(String),
          level: "info",
          method: expect.any(String),
          path: expect.any(String),
          status: expect.any(Number),
          durationMs: expect.any(Number),
        }),
      );
      expect(line.requestId).toMatch(/^[0-9a-f]{32}$/); // nginx's $request_id, for matching its access log
    }
    const all = stack.service().output();
    for (const secret of ["same@example.in", "Same Origin", "Through nginx.", "private"])
      expect(all).not.toContain(secret);

    // nginx's access log: JSON too, the path as requested without its query, and the same request id.
    const access = fs
      .readFileSync(path.join(stack.confDir, "logs", "access.log"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const health = access.filter((l) => l.path === "/api/health").at(-1)!;
    expect(health).toMatchObject({ method: "GET", status: 200, requestId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    // The service's line for the same request (its stdout may reach this process a moment after the answer).
    for (let i = 0; i < 50 && !stack.serviceLog().some((l) => l.requestId === health.requestId); i += 1)
      await new Promise((r) => setTimeout(r, 50));
    expect(stack.serviceLog().find((l) => l.requestId === health.requestId)).toMatchObject({
      msg: "request",
      method: "GET",
      path: "/api/health",
      status: 200,
    });
    expect(access.some((l) => l.path === "/home" && l.status === 200)).toBe(true);
    expect(JSON.stringify(access)).not.toMatch(/private|127\.0\.0\.1/);
  });
});

describe("raw paths with dot segments or encoded slashes", () => {
  /** The paths of the service's request lines logged after the first `from` (its log can lag its answer). */
  const requestLines = () => stack.serviceLog().filter((l) => l.msg === "request");
  async function pathsLoggedSince(from: number, what: string): Promise<unknown[]> {
    await until(() => requestLines().length > from, 5_000, `the service's log line of ${what}`);
    return requestLines()
      .slice(from)
      .map((l) => l.path);
  }

  test.each([
    ["/inbox/api/../../api/health"],
    ["/inbox/api/%2e%2e/%2E%2E/api/health"],
    ["/inbox/api/..%2f..%2Fapi/health"],
    ["/home/..%2fapi/health"],
  ])("%s lands in /api/: the site's headers, and the service is sent /api/health", async (raw) => {
    const from = requestLines().length;
    const res = await requestRawPath(stack.origin, raw);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    expect(res.headers["x-robots-tag"]).toBeUndefined();
    expect(await pathsLoggedSince(from, raw)).toEqual(["/api/health"]);
  });

  test("an enquiry posted to /inbox/api/..%2f..%2fapi/email reaches the enquiry handler, as /api/email", async () => {
    const from = requestLines().length;
    const res = await requestRawPath(stack.origin, "/inbox/api/..%2f..%2fapi/email", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    // The form's own refusal of an empty enquiry, not the inbox's 401 or 404.
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body.toString())).toMatchObject({ error: expect.any(String), fields: expect.any(Object) });
    expectSecurityHeaders(res);
    expect(await pathsLoggedSince(from, "the enquiry")).toEqual(["/api/email"]);
  });

  test.each([["/api/..%2finbox/api/counts"], ["/api/%2e%2e/inbox/api/counts"], ["/oauth/../inbox/api/counts"]])(
    "%s lands in /inbox/api/: the inbox's headers and its 401, and the service is sent /inbox/api/counts",
    async (raw) => {
      const from = requestLines().length;
      const res = await requestRawPath(stack.origin, raw);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body.toString())).toEqual({ error: "unauthorised", message: "Sign in to the inbox." });
      expect(res.headers["content-security-policy"]).toBe(INBOX_CSP);
      expect(res.headers["x-robots-tag"]).toBe("noindex, nofollow");
      expect(res.headers["referrer-policy"]).toBe("no-referrer");
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(await pathsLoggedSince(from, raw)).toEqual(["/inbox/api/counts"]);
    },
  );

  test("a path that climbs above / is nginx's 400, and never reaches the service", async () => {
    const from = requestLines().length;
    for (const raw of ["/api/../../api/health", "/inbox/api/%2e%2e/%2e%2e/%2e%2e/api/health", "/api/..%2f..%2f..%2fx"])
      expect([raw, (await requestRawPath(stack.origin, raw)).status]).toEqual([raw, 400]);
    // Then a request that does reach it: the next line is its own.
    await get("/api/health");
    expect(await pathsLoggedSince(from, "/api/health")).toEqual(["/api/health"]);
  });

  test("the service never saw a raw path: no dot segment, %2e or %2f in any line of its log", () => {
    const paths = requestLines().map((l) => String(l.path));
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => /\/\.\.?(\/|$)|%2e|%2f/i.test(p))).toEqual([]);
  });
});

describe("the inbox's address without its slash", () => {
  const inboxHeaders = [
    "cache-control",
    "x-robots-tag",
    "referrer-policy",
    "content-security-policy",
    "cross-origin-opener-policy",
    "x-frame-options",
    "x-content-type-options",
    "strict-transport-security",
    "permissions-policy",
  ];
  const pick = (res: RawAnswer) => Object.fromEntries(inboxHeaders.map((name) => [name, res.headers[name]]));

  test("/inbox is answered 301 to /inbox/ (query kept), with the headers /inbox/ gets: never cached, never indexed", async () => {
    const page = await get("/inbox/");
    expect(page.status).toBe(200);
    const redirect = await get("/inbox");
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe("/inbox/");
    expect(pick(redirect)).toEqual(pick(page));
    expect(redirect.headers["cache-control"]).toBe("no-store");
    expect(redirect.headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(redirect.headers["content-security-policy"]).toBe(INBOX_CSP);
    for (const name of inboxHeaders) expect([name, headerCount(redirect, name)]).toEqual([name, 1]);
    expect((await get("/inbox?from=mail")).headers.location).toBe("/inbox/?from=mail");
  });
});

describe("the inbox's files", () => {
  // The bundle's names as the build wrote them (src/node/inbox-build.ts: inbox-<content hash>.js/.css).
  const bundle = fs
    .readdirSync(path.join(projectRoot, "public", "inbox"))
    .filter((name) => /^inbox-[0-9A-Z]{8}\.(js|css)$/.test(name));

  test("its script and stylesheet, named by their content, are kept a year; its pages are never stored", async () => {
    expect(bundle.map((name) => path.extname(name)).sort()).toEqual([".css", ".js"]);
    for (const name of bundle) {
      const res = await get(`/inbox/${name}`);
      expect([name, res.status, res.headers["cache-control"]]).toEqual([
        name,
        200,
        "public, max-age=31536000, immutable",
      ]);
      expect([name, headerCount(res, "cache-control")]).toEqual([name, 1]);
      expect(res.headers["content-security-policy"]).toBe(INBOX_CSP);
      expect(res.headers["x-robots-tag"]).toBe("noindex, nofollow");
    }
    for (const page of ["/inbox/", "/inbox/welcome/", "/inbox/index.html"]) {
      const res = await get(page);
      expect([page, res.status, res.headers["cache-control"]]).toEqual([page, 200, "no-store"]);
    }
    // A name of the bundle's shape that is not there: the 404 page, never kept for a year.
    const missing = await get("/inbox/inbox-ZZZZZZZZ.js");
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).not.toMatch(/immutable|max-age=[1-9]/);
  });
});
