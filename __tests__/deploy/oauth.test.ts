/**
 * The editing studio's GitHub sign-in on the site's own service (src/site-service/sign-in/),
 * over HTTP: the service as its own process, and a local stand-in for GitHub's OAuth endpoints
 * (./support/github-stand-in.ts; github.com cannot be reached from here) as GITHUB_OAUTH_URL. The
 * state is bound to the browser and checked, the exact callback URL is sent, the code is exchanged
 * once, the result is posted to the site's origin only, and no token reaches the log.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../support/serve";
import { request, type RawAnswer } from "./support/http";
import { startGitHubStandIn, type GitHubStandIn } from "./support/github-stand-in";
import { run, stopProc, waitFor, type Proc } from "./support/stack";

const CLIENT_ID = "Iv1.standinclient";
const CLIENT_SECRET = "standin-secret-0123456789abcdef";
const dirs: string[] = [];
const procs: Proc[] = [];
let standIn: GitHubStandIn;
let site: string;
let service: Proc;

async function startService(env: NodeJS.ProcessEnv, port: number): Promise<Proc> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oauth-service-"));
  dirs.push(dataDir);
  const proc = run(process.execPath, ["--import", "tsx", "src/site-service/bin/site-service.ts"], {
    env: {
      ...process.env,
      SMTP_URL: "",
      ENQUIRY_TO: "",
      ENQUIRY_HOST: "127.0.0.1",
      ENQUIRY_PORT: String(port),
      ENQUIRY_DATA_DIR: dataDir,
      GITHUB_OAUTH_CLIENT_ID: "",
      GITHUB_OAUTH_CLIENT_SECRET: "",
      ...env,
    },
  });
  procs.push(proc);
  return proc;
}

beforeAll(async () => {
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  standIn = await startGitHubStandIn({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    callbackUrl: `${site}/oauth/callback`,
    repo: "cyrus/website",
  });
  service = await startService(
    {
      GITHUB_OAUTH_CLIENT_ID: CLIENT_ID,
      GITHUB_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
      GITHUB_OAUTH_URL: standIn.origin,
      SITE_URL: `${site}/`,
    },
    port,
  );
  await waitFor(`${site}/healthz`, 200, 300, () => service.child.exitCode === null);
}, 60_000);

afterAll(async () => {
  for (const proc of procs) await stopProc(proc, "SIGTERM", 5_000);
  await standIn?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Starts a sign-in as the studio's window does: the state cookie and GitHub's address. */
async function begin(query = "provider=github&site_id=127.0.0.1&scope=repo") {
  const res = await request(`${site}/oauth/authorize?${query}`);
  const setCookie = String(res.headers["set-cookie"] ?? "");
  return { res, setCookie, cookie: setCookie.split(";")[0]!, location: new URL(String(res.headers.location)) };
}

/** GitHub's part: the stand-in sends the window back with a code and the state. */
async function atGitHub(location: URL): Promise<URL> {
  const res = await request(location.href);
  expect(res.status).toBe(302);
  return new URL(String(res.headers.location));
}

const pageData = (res: RawAnswer) =>
  JSON.parse(
    /<script type="application\/json" id="sign-in-result">(.*?)<\/script>/s.exec(res.body.toString())![1]!,
  ) as {
    origin: string;
    message: string;
    ok: boolean;
  };

const exchanges = () => standIn.requests.filter((r) => r.path === "/login/oauth/access_token");

test("authorize: a random state in an HttpOnly SameSite=Lax cookie, and GitHub with the exact callback URL", async () => {
  const first = await begin();
  const second = await begin();
  expect(first.res.status).toBe(302);
  expect(first.res.headers["cache-control"]).toBe("no-store");
  expect(`${first.location.origin}${first.location.pathname}`).toBe(`${standIn.origin}/login/oauth/authorize`);
  const q = first.location.searchParams;
  expect(q.get("client_id")).toBe(CLIENT_ID);
  expect(q.get("redirect_uri")).toBe(`${site}/oauth/callback`);
  expect(q.get("scope")).toBe("repo");
  expect(q.get("state")).toMatch(/^[\w-]{43}$/);
  expect(q.get("state")).not.toBe(second.location.searchParams.get("state"));
  expect(first.cookie).toBe(`cyrus-oauth-state=${q.get("state")}`);
  expect(first.setCookie).toMatch(/; HttpOnly(;|$)/);
  expect(first.setCookie).toMatch(/; SameSite=Lax(;|$)/);
  expect(first.setCookie).toMatch(/; Path=\/(;|$)/);
  expect(first.setCookie).toMatch(/; Max-Age=600(;|$)/);
  // Plain http on loopback here; over https the cookie is Secure (below).
  expect(first.setCookie).not.toMatch(/Secure/);
  // Nothing secret goes to the browser.
  expect(first.location.href).not.toContain(CLIENT_SECRET);
});

test("callback with the browser's state: the code is exchanged once and the token posted to the site's origin only", async () => {
  const { cookie, location } = await begin();
  const back = await atGitHub(location);
  expect(`${back.origin}${back.pathname}`).toBe(`${site}/oauth/callback`);
  const before = exchanges().length;
  const res = await request(back.href, { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(exchanges()).toHaveLength(before + 1);
  const sent = exchanges().at(-1)!.body!;
  expect(sent).toEqual({
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    code: back.searchParams.get("code"),
    redirect_uri: `${site}/oauth/callback`,
  });
  const token = standIn.tokens.at(-1)!;
  const data = pageData(res);
  expect(data.origin).toBe(site);
  expect(data.message).toBe(`authorization:github:success:${JSON.stringify({ token, provider: "github" })}`);
  const html = res.body.toString();
  expect(html).not.toMatch(/postMessage\([^)]*["']\*["']/);
  expect(html).toContain("studio.postMessage(data.message, data.origin)");
  // The state is used once: the cookie is cleared with this answer.
  expect(String(res.headers["set-cookie"])).toMatch(/^cyrus-oauth-state=; Path=\/; Max-Age=0/);
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.headers["referrer-policy"]).toBe("no-referrer");
  // The page's one inline script is allowed by its hash, nothing else.
  const script = /<script>(.*?)<\/script>/s.exec(html)![1]!;
  const hash = createHash("sha256").update(script).digest("base64");
  expect(res.headers["content-security-policy"]).toBe(
    `default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  );

  // The same code again (a reload of the window): GitHub refuses it, the studio is told so.
  const again = await request(back.href, { headers: { cookie } });
  expect(again.status).toBe(502);
  expect(pageData(again).message).toMatch(/^authorization:github:error:.*bad_verification_code/);
});

test.each([
  ["a state of another sign-in", (state: string, cookie: string) => ({ state: `${state.slice(0, -2)}xx`, cookie })],
  ["no state cookie (another browser)", (state: string) => ({ state, cookie: "" })],
  ["no state parameter", (_state: string, cookie: string) => ({ state: "", cookie })],
  ["a cookie of another sign-in", (state: string) => ({ state, cookie: "cyrus-oauth-state=AAAA" })],
])("callback with %s: refused, and no code is exchanged", async (_name, alter) => {
  const { cookie, location } = await begin();
  const back = await atGitHub(location);
  const changed = alter(back.searchParams.get("state")!, cookie);
  back.searchParams.set("state", changed.state);
  if (!changed.state) back.searchParams.delete("state");
  const before = exchanges().length;
  const res = await request(back.href, { headers: changed.cookie ? { cookie: changed.cookie } : {} });
  expect(res.status).toBe(400);
  expect(exchanges()).toHaveLength(before);
  expect(pageData(res).message).toMatch(/^authorization:github:error:/);
  expect(pageData(res).origin).toBe(site);
});

test("GitHub's refusal (the editor said no) is passed on without an exchange", async () => {
  const { cookie, location } = await begin();
  const before = exchanges().length;
  const state = location.searchParams.get("state")!;
  const res = await request(`${site}/oauth/callback?error=access_denied&state=${state}`, { headers: { cookie } });
  expect(res.status).toBe(400);
  expect(exchanges()).toHaveLength(before);
  expect(pageData(res).message).toBe(
    `authorization:github:error:${JSON.stringify({ message: "GitHub did not authorise the studio" })}`,
  );
});

test("only provider=github, known scopes, and GET", async () => {
  expect((await request(`${site}/oauth/authorize?provider=gitlab`)).status).toBe(400);
  expect((await request(`${site}/oauth/authorize?provider=github&scope=delete_repo`)).status).toBe(400);
  expect((await request(`${site}/oauth/authorize?provider=github&scope=repo`, { method: "POST" })).status).toBe(405);
  expect((await request(`${site}/oauth/callback?code=x&state=y`, { method: "HEAD" })).status).toBe(405);
});

test("no token, code, state or secret in the service's log", async () => {
  // Wait for the last request lines to be written.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const output = service.output();
  expect(standIn.tokens.length).toBeGreaterThan(0);
  for (const token of standIn.tokens) expect(output).not.toContain(token);
  expect(output).not.toContain(CLIENT_SECRET);
  expect(output).not.toMatch(/code-\d+-/);
  expect(output).not.toMatch(/state=|code=/);
  expect(output).toContain('"outcome":"signed in"');
  expect(output).toContain('"outcome":"state refused"');
});

test("over https the cookie is Secure and __Host-; without an OAuth app the paths are 404; half a setting stops the start", async () => {
  const httpsPort = await freePort();
  const https = await startService(
    {
      GITHUB_OAUTH_CLIENT_ID: CLIENT_ID,
      GITHUB_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
      SITE_URL: "https://www.example.test",
    },
    httpsPort,
  );
  await waitFor(`http://127.0.0.1:${httpsPort}/healthz`, 200, 300, () => https.child.exitCode === null);
  const res = await request(`http://127.0.0.1:${httpsPort}/oauth/authorize?provider=github&scope=repo`);
  const location = new URL(String(res.headers.location));
  expect(location.origin).toBe("https://github.com");
  expect(location.searchParams.get("redirect_uri")).toBe("https://www.example.test/oauth/callback");
  expect(String(res.headers["set-cookie"])).toMatch(
    /^__Host-cyrus-oauth-state=[\w-]{43}; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/,
  );
  await stopProc(https);

  const offPort = await freePort();
  const off = await startService({}, offPort);
  await waitFor(`http://127.0.0.1:${offPort}/healthz`, 200, 300, () => off.child.exitCode === null);
  expect((await request(`http://127.0.0.1:${offPort}/oauth/authorize?provider=github`)).status).toBe(404);
  await stopProc(off);

  const half = await startService({ GITHUB_OAUTH_CLIENT_ID: CLIENT_ID }, await freePort());
  expect(await half.exited).toBe(1);
  expect(half.output()).toContain("GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET go together");
}, 60_000);
