/**
 * @jest-environment node
 *
 * The studio's git host from the build's environment, and the Content-Security-Policy it needs.
 */
import { adminCsp, backendFromEnv, localBackend, reviewFromEnv } from "../../admin/scripts/backend";
import { cmsConfig } from "../../admin/scripts/build";
import { withoutEmpty } from "../../admin/src/prune";

const github = { CMS_BACKEND: "github", CMS_REPO: "cyrus/website", CMS_BASE_URL: "https://oauth.example.com" };

test("no CMS_BACKEND: not set up", () => {
  expect(backendFromEnv({})).toBeUndefined();
});

test("GitHub through an OAuth service, on main unless CMS_BRANCH says otherwise", () => {
  expect(backendFromEnv(github)).toEqual({
    name: "github",
    repo: "cyrus/website",
    branch: "main",
    base_url: "https://oauth.example.com",
  });
  expect(backendFromEnv({ ...github, CMS_BRANCH: "content" })?.branch).toBe("content");
});

test("GitHub through the site's own service when its OAuth app is set: base_url is the site's origin", () => {
  const own = { CMS_BACKEND: "github", CMS_REPO: "cyrus/website", GITHUB_OAUTH_CLIENT_ID: "Iv1.abc" };
  expect(backendFromEnv({ ...own, SITE_URL: "https://www.example.com/" })).toEqual({
    name: "github",
    repo: "cyrus/website",
    branch: "main",
    base_url: "https://www.example.com",
    auth_endpoint: "oauth/authorize",
  });
  // An OAuth service elsewhere, when named, is used as before.
  expect(backendFromEnv({ ...own, CMS_BASE_URL: "https://oauth.example.com" })?.base_url).toBe(
    "https://oauth.example.com",
  );
  expect(() => backendFromEnv(own)).toThrow(/needs SITE_URL/);
  expect(() => backendFromEnv({ ...own, SITE_URL: "http://www.example.com" })).toThrow(/needs SITE_URL/);
  // The studio calls only the API from its scripts: the sign-in is a window of its own origin.
  expect(adminCsp(backendFromEnv({ ...own, SITE_URL: "https://www.example.com" }))).toContain(
    "connect-src 'self' blob: https://api.github.com;",
  );
});

test("GitLab and Gitea sign in with PKCE and their application's id", () => {
  expect(backendFromEnv({ CMS_BACKEND: "gitlab", CMS_REPO: "cyrus/website", CMS_APP_ID: "abc" })).toMatchObject({
    name: "gitlab",
    app_id: "abc",
    auth_type: "pkce",
  });
  expect(
    backendFromEnv({
      CMS_BACKEND: "gitea",
      CMS_REPO: "cyrus/website",
      CMS_APP_ID: "abc",
      CMS_BASE_URL: "https://git.example.com",
      CMS_API_ROOT: "https://git.example.com/api/v1",
    }),
  ).toMatchObject({ name: "gitea", api_root: "https://git.example.com/api/v1" });
});

test.each([
  [{ CMS_BACKEND: "bitbucket" }, /not a git host the studio supports/],
  [{ CMS_BACKEND: "github" }, /needs CMS_REPO/],
  [{ ...github, CMS_BASE_URL: undefined }, /needs GITHUB_OAUTH_CLIENT_ID .* or CMS_BASE_URL/],
  [{ ...github, CMS_BASE_URL: "http://oauth.example.com" }, /must be an https:\/\/ address/],
  [{ CMS_BACKEND: "gitlab", CMS_REPO: "a/b" }, /needs CMS_APP_ID/],
])("a setting that cannot work stops the build with a plain message: %j", (env, message) => {
  expect(() => backendFromEnv(env)).toThrow(message);
});

test("the policy: strict without a backend; the git host's API, blob: and eval with one; never framed", () => {
  const none = adminCsp(undefined);
  expect(none).toContain("script-src 'self';");
  expect(none).toContain("connect-src 'self';");
  const gh = adminCsp(backendFromEnv(github));
  expect(gh).toContain("script-src 'self' 'unsafe-eval';");
  expect(gh).toContain("connect-src 'self' blob: https://api.github.com;");
  expect(gh).toContain("img-src 'self' data: blob: https://avatars.githubusercontent.com;");
  expect(gh).toContain("frame-ancestors 'none'");
  expect(adminCsp(localBackend("http://127.0.0.1:8081/api/v1"))).toContain(
    "connect-src 'self' blob: http://127.0.0.1:8081;",
  );
});

test("what the studio saves leaves out empty optional values, which the schemas refuse", () => {
  expect(
    withoutEmpty({ title: "T", gallery: [], heading: "", sections: [{ heading: " ", items: ["a", ""] }], n: 0 }),
  ).toEqual({ title: "T", sections: [{ items: ["a"] }], n: 0 });
});

test("review before going live (CMS_REVIEW=1): Decap's editorial workflow, where its backend offers it", () => {
  const gitea = { CMS_BACKEND: "gitea", CMS_REPO: "cyrus/website", CMS_APP_ID: "abc" };
  const giteaUrls = { CMS_BASE_URL: "https://git.example.org", CMS_API_ROOT: "https://git.example.org/api/v1" };
  expect(reviewFromEnv(backendFromEnv(github), github)).toBe(false);
  expect(reviewFromEnv(backendFromEnv(github), { ...github, CMS_REVIEW: "1" })).toBe(true);
  expect(() => reviewFromEnv(backendFromEnv({ ...gitea, ...giteaUrls }), { CMS_REVIEW: "1" })).toThrow(
    "CMS_REVIEW=1 needs a git host whose Decap backend offers the editorial workflow (GitHub or GitLab); Decap's gitea backend does not",
  );
  expect(() => reviewFromEnv(backendFromEnv(github), { CMS_REVIEW: "yes" })).toThrow('CMS_REVIEW="yes": use 1');
  const backend = backendFromEnv(github)!;
  expect(cmsConfig(backend, "data", true)).toMatchObject({ publish_mode: "editorial_workflow" });
  expect(cmsConfig(backend, "data")).toMatchObject({ publish_mode: "simple" });
});

test("the studio asks the git host for no deploy preview: the site has none", () => {
  // Decap otherwise polls the host after each save, and offered a "Check for Preview" button that did nothing.
  const backend = backendFromEnv(github)!;
  for (const review of [false, true])
    expect(cmsConfig(backend, "data", review)).toMatchObject({ show_preview_links: false });
});
