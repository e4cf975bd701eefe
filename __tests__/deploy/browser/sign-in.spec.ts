/**
 * The studio's GitHub sign-in in Chromium, behind nginx with the project's configuration and the
 * site's own service: /admin, "Login with GitHub", the sign-in window through /oauth/authorize, GitHub
 * and /oauth/callback, and the studio listing the collections as the signed-in editor.
 *
 * GitHub cannot be reached from these machines: a local stand-in (../support/github-stand-in.ts)
 * plays github.com, sending the window straight back as GitHub does for an app the editor has already
 * authorised, and api.github.com for the calls Decap makes at sign-in and to list the collections
 * (CMS_API_ROOT points at it). The studio is built again for it (CMS_BACKEND=github, the site's own
 * sign-in) on the stack's copy of the build, before nginx's configuration is rendered.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test, expect, type BrowserContext } from "@playwright/test";
import { startGitHubStandIn, type GitHubStandIn } from "../support/github-stand-in";
import { projectRoot, startStack, type Stack } from "../support/stack";

const CLIENT_ID = "Iv1.browserstandin";
const CLIENT_SECRET = "browser-standin-secret";
let stack: Stack;
let standIn: GitHubStandIn;
let origin = "";

test.beforeAll(async () => {
  test.setTimeout(300_000);
  standIn = await startGitHubStandIn({
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    callbackUrl: () => `${origin}/oauth/callback`,
    repo: "cyrus/website",
  });
  stack = await startStack({
    prepare: ({ root, origin: siteOrigin }) => {
      origin = siteOrigin;
      const env = {
        ...process.env,
        CMS_BACKEND: "github",
        CMS_REPO: "cyrus/website",
        CMS_BRANCH: "main",
        CMS_BASE_URL: "",
        CMS_API_ROOT: standIn.apiRoot,
        GITHUB_OAUTH_CLIENT_ID: CLIENT_ID,
        SITE_URL: siteOrigin,
      };
      // Decap is in the studio's own packages (admin/node_modules): installed if missing, as npm test does.
      const install = spawnSync(process.execPath, ["--import", "tsx", "tools/ensure-admin.ts"], {
        cwd: projectRoot,
        encoding: "utf8",
      });
      if (install.status !== 0) throw new Error(`admin/'s packages:\n${install.stdout}${install.stderr}`);
      const build = spawnSync(
        process.execPath,
        ["--import", "tsx", "admin/scripts/build.ts", "--out", path.join(root, "admin")],
        { cwd: projectRoot, env, encoding: "utf8" },
      );
      if (build.status !== 0) throw new Error(`the studio's build failed:\n${build.stdout}${build.stderr}`);
      return {
        GITHUB_OAUTH_CLIENT_ID: CLIENT_ID,
        GITHUB_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
        GITHUB_OAUTH_URL: standIn.origin,
        SITE_URL: siteOrigin,
      };
    },
  });
});

test.afterAll(async () => {
  test.setTimeout(30_000);
  await stack?.stop();
  await standIn?.close();
});

/**
 * Console errors, uncaught errors and CSP violations of every page of the context: the studio, and its
 * sign-in window from its first document (a listener on the window itself would come too late).
 */
async function watch(context: BrowserContext, problems: string[]): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(
        `CSP: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  context.on("console", (message) => {
    // Chromium asks every page without an icon link for /favicon.ico (404 on this site): not the sign-in's.
    if (message.location().url.endsWith("/favicon.ico")) return;
    if (message.type() === "error")
      problems.push(`${message.page()?.url()}: console error: ${message.text()} (${message.location().url})`);
  });
  context.on("response", (response) => {
    if (response.status() >= 400 && !response.url().endsWith("/favicon.ico"))
      problems.push(`${response.status()} ${response.url()}`);
  });
  context.on("weberror", (error) => problems.push(`uncaught ${error.error().name}: ${error.error().message}`));
}

test("Login with GitHub: the sign-in window goes through GitHub and back, and the studio lists the collections as the editor", async ({
  page,
  context,
}) => {
  // A bound, not a measure: the studio's bundle is heavy to start, and CI runs this beside the built-site
  // tests and the stack's Jest part (45 s there, 21 s with the Jest part alone beside it).
  test.setTimeout(120_000);
  const problems: string[] = [];
  await watch(context, problems);

  await page.goto(`${origin}/admin`);
  const login = page.getByRole("button", { name: "Login with GitHub" });
  await expect(login).toBeVisible({ timeout: 30_000 });
  const [popup] = await Promise.all([context.waitForEvent("page"), login.click()]);
  // The studio closes the window once it has the token: the window kept its opener all the way.
  await popup.waitForEvent("close", { timeout: 20_000 });
  // The service logs a request once its answer is sent, and the line comes through the service's output
  // pipe: the window can close before the callback's line has arrived, so wait for it (bounded).
  const signIn = () =>
    stack
      .serviceLog()
      .filter((line) => line.msg === "request" && String(line.path).startsWith("/oauth/"))
      .map((line) => `${line.status} ${line.path}`);
  await expect.poll(signIn, { timeout: 5_000 }).toEqual(["302 /oauth/authorize", "200 /oauth/callback"]);
  const atGitHub = standIn.requests.filter((r) => r.path === "/login/oauth/authorize");
  expect(atGitHub).toHaveLength(1);
  expect(atGitHub[0]!.query.redirect_uri).toBe(`${origin}/oauth/callback`);
  expect(atGitHub[0]!.query.scope).toBe("repo");
  expect(standIn.tokens).toHaveLength(1);

  // The studio, signed in: the collections of data/schemas in its sidebar; a folder collection's
  // entries read from the repository (the stand-in answers from this working copy's HEAD).
  for (const label of ["Pages", "Services", "Approvals", "Site and menu"])
    await expect(page.getByRole("link", { name: label, exact: true }).first()).toBeVisible({ timeout: 30_000 });
  await page.getByRole("link", { name: "Services", exact: true }).first().click();
  await expect(page.getByText("Clinical Trial Monitoring").first()).toBeVisible({ timeout: 30_000 });

  // As the editor the token belongs to: the studio's record of who is signed in (Decap keeps it in the
  // browser), and every API call carried the token the stand-in issued.
  await expect(page.getByRole("button", { name: "Account options dropdown" })).toBeVisible();
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem("decap-cms-user") ?? "null") as unknown);
  expect(user).toMatchObject({ login: standIn.user.login, name: standIn.user.name });
  const token = standIn.tokens.at(-1)!;
  const apiCalls = standIn.requests.filter((r) => r.path.startsWith("/api/") && r.method !== "OPTIONS");
  console.log(`Decap's API calls: ${[...new Set(apiCalls.map((r) => r.path))].join(", ")}`);
  expect(apiCalls.length).toBeGreaterThan(2);
  for (const call of apiCalls) expect([call.path, call.authorization]).toEqual([call.path, `token ${token}`]);
  expect(apiCalls.map((r) => r.path)).toEqual(
    expect.arrayContaining([
      "/api/user",
      "/api/repos/cyrus/website",
      "/api/repos/cyrus/website/git/trees/main:data/services",
    ]),
  );
  expect(problems).toEqual([]);
});
