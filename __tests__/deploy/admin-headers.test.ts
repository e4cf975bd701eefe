/**
 * The editing studio behind nginx: /admin and its files carry the studio's own policy (what Decap
 * CMS needs, from the build's public/admin/csp.txt) with every other security header, and ask search
 * engines not to index them; the site's pages keep the strict policy. The studio keeps a handle on
 * the sign-in window it opens (Cross-Origin-Opener-Policy same-origin-allow-popups), and the sign-in
 * paths (/oauth/, the service) send no opener policy, the callback page's own CSP, and no referrer.
 * The enquiry inbox (/inbox/, its API on the service) is never cached or indexed, sends no referrer
 * and has its own strict policy.
 */
import fs from "node:fs";
import path from "node:path";
import { CALLBACK_CSP } from "../../src/site-service";
import { INBOX_CSP } from "../../deploy/nginx/render";
import { headerCount, parseCsp, request, type RawAnswer } from "./support/http";
import { startStack, type Stack } from "./support/stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    // The sign-in set up (GitHub itself is never called here: the redirect to it is only looked at).
    serviceEnv: {
      GITHUB_OAUTH_CLIENT_ID: "Iv1.headers",
      GITHUB_OAUTH_CLIENT_SECRET: "headers-secret",
      GITHUB_OAUTH_URL: "",
      SITE_URL: "https://www.example.test",
    },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
}, 30_000);

const get = (p: string) => request(`${stack.origin}${p}`);

test.each(["/admin", "/admin/", "/admin/index.html", "/admin/studio.js"])(
  "%s: 200, the studio's policy, noindex and the other security headers",
  async (url) => {
    const res = await get(url);
    expect(res.status).toBe(200);
    const policy = fs.readFileSync(path.join(stack.root, "admin/csp.txt"), "utf8").trim();
    expect(res.headers["content-security-policy"]).toBe(policy);
    expect(headerCount(res, "content-security-policy")).toBe(1);
    expect(res.headers["x-robots-tag"]).toBe("noindex, nofollow");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.headers["strict-transport-security"]).toMatch(/^max-age=\d+; includeSubDomains$/);
    // The sign-in window it opens stays its own (same-origin would cut it off once it has been to GitHub).
    expect(res.headers["cross-origin-opener-policy"]).toBe("same-origin-allow-popups");
    expect(headerCount(res, "cross-origin-opener-policy")).toBe(1);
    expect(parseCsp(policy).get("frame-ancestors")).toEqual(["'none'"]);
    if (url !== "/admin/studio.js") expect(res.body.toString()).toContain('<meta name="robots" content="noindex');
  },
);

test("the site's pages keep their own strict policy, without the studio's allowances", async () => {
  const csp = parseCsp(String((await get("/home")).headers["content-security-policy"]));
  expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
  expect(csp.get("connect-src")).toEqual(["'self'"]);
  expect((await get("/home")).headers["x-robots-tag"]).toBeUndefined();
});

test("a missing file under /admin is a 404", async () => {
  expect((await get("/admin/no-such-file.js")).status).toBe(404);
});

test("dot-files under /admin are never served, as everywhere else", async () => {
  // Files that must not leave the server, should a deploy ever leave them in public/admin.
  fs.mkdirSync(path.join(stack.root, "admin", ".git"), { recursive: true });
  fs.writeFileSync(path.join(stack.root, "admin", ".git", "config"), "[remote]\n\turl = https://token@example.com\n");
  fs.writeFileSync(path.join(stack.root, "admin", ".env"), "SECRET=1\n");
  for (const url of ["/admin/.git/config", "/admin/.env"]) {
    const res = await get(url);
    expect({ url, status: res.status }).toEqual({ url, status: 404 });
    expect(res.body.toString()).not.toContain("SECRET");
  }
});

/** The sign-in window's headers: every security header but the opener policy, its page's CSP, no referrer. */
function expectSignInHeaders(res: RawAnswer): void {
  expect(res.headers["cross-origin-opener-policy"]).toBeUndefined();
  expect(res.headers["content-security-policy"]).toBe(CALLBACK_CSP);
  expect(res.headers["referrer-policy"]).toBe("no-referrer");
  expect(res.headers["x-frame-options"]).toBe("DENY");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(res.headers["strict-transport-security"]).toMatch(/^max-age=\d+; includeSubDomains$/);
  expect(res.headers["cache-control"]).toBe("no-store");
  for (const name of ["content-security-policy", "referrer-policy", "x-content-type-options", "cache-control"])
    expect([name, headerCount(res, name)]).toEqual([name, 1]);
  const csp = parseCsp(CALLBACK_CSP);
  expect(csp.get("default-src")).toEqual(["'none'"]);
  expect(csp.get("script-src")).toEqual([expect.stringMatching(/^'sha256-[\w+/]+=*'$/)]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
}

test("/oauth/authorize reaches the service: to GitHub with the state cookie, with the sign-in's headers", async () => {
  const res = await get("/oauth/authorize?provider=github&site_id=www.example.test&scope=repo");
  expect(res.status).toBe(302);
  const location = new URL(String(res.headers.location));
  expect(`${location.origin}${location.pathname}`).toBe("https://github.com/login/oauth/authorize");
  expect(location.searchParams.get("redirect_uri")).toBe("https://www.example.test/oauth/callback");
  expect(String(res.headers["set-cookie"])).toMatch(
    /^__Host-cyrus-oauth-state=[\w-]{43}; Path=\/;.* HttpOnly; SameSite=Lax; Secure$/,
  );
  expectSignInHeaders(res);
});

test("/oauth/callback without the browser's state: the service's refusal page, with the sign-in's headers", async () => {
  const res = await get("/oauth/callback?code=abc&state=forged");
  expect(res.status).toBe(400);
  expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(res.body.toString()).toContain("authorization:github:error:");
  expectSignInHeaders(res);
});

/**
 * The inbox's headers, each once: no cache (but for its content-named script and stylesheet, kept a
 * year), no index, no referrer, its own strict policy.
 */
function expectInboxHeaders(res: RawAnswer, cacheControl = "no-store"): void {
  for (const [name, value] of [
    ["cache-control", cacheControl],
    ["x-robots-tag", "noindex, nofollow"],
    ["referrer-policy", "no-referrer"],
    ["x-content-type-options", "nosniff"],
    ["content-security-policy", INBOX_CSP],
  ]) {
    expect([name, res.headers[name!]]).toEqual([name, value]);
    expect([name, headerCount(res, name!)]).toEqual([name, 1]);
  }
  const csp = parseCsp(INBOX_CSP);
  expect(csp.get("script-src")).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
}

test("/inbox/api/ reaches the service: 401 without a session, with the inbox's headers", async () => {
  const res = await get("/inbox/api/counts");
  expect(res.status).toBe(401);
  expect(JSON.parse(res.body.toString())).toEqual({ error: "unauthorised", message: "Sign in to the inbox." });
  expectInboxHeaders(res);
});

test("/inbox/api/ passes a sign-in's POST with its Origin and X-Inbox to the service; the options name the site's host", async () => {
  const res = await request(`${stack.origin}/inbox/api/session/sign-in-options`, {
    method: "POST",
    headers: { origin: "https://www.example.test", "x-inbox": "1", "content-type": "application/json" },
    body: "{}",
  });
  expect(res.status).toBe(200);
  expect(JSON.parse(res.body.toString())).toMatchObject({ options: { rpId: "www.example.test" } });
  expectInboxHeaders(res);
});

test("/inbox/ pages, the build's (src/node/inbox-build.ts): the inbox's headers, never the site's cache rules", async () => {
  const bundle = fs.readdirSync(path.join(stack.root, "inbox")).filter((f) => /^inbox-\w+\.(js|css)$/.test(f));
  expect(bundle).toHaveLength(2);
  for (const page of ["/inbox/", "/inbox/welcome", "/inbox/welcome/"]) {
    const res = await get(page);
    expect([page, res.status]).toEqual([page, 200]);
    expectInboxHeaders(res);
  }
  for (const page of bundle.map((f) => `/inbox/${f}`)) {
    const res = await get(page);
    expect([page, res.status]).toEqual([page, 200]);
    expectInboxHeaders(res, "public, max-age=31536000, immutable");
  }
  const html = (await get("/inbox/")).body.toString();
  expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
  // Nothing inline: the inbox's CSP allows only its own files.
  expect(html).not.toMatch(/<script(?![^>]*\ssrc=)|<style|\sstyle=/);
});
