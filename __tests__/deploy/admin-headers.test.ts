/**
 * The editing studio behind nginx: /admin and its files carry the studio's own policy (what Decap
 * CMS needs, from the build's public/admin/csp.txt) with every other security header, and ask search
 * engines not to index them; the site's pages keep the strict policy.
 */
import fs from "node:fs";
import path from "node:path";
import { headerCount, parseCsp, request } from "./support/http";
import { startStack, type Stack } from "./support/stack";

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
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
