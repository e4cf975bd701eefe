/**
 * @jest-environment node
 *
 * The deployed studio without a git host says so in plain words (and holds no Decap); with one, it
 * is Decap with the generated configuration for that host, and its policy allows that host.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { buildAdmin } from "../../admin/scripts/build";

let out: string;
beforeEach(() => {
  out = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-admin-build-"));
});
afterEach(() => fs.rmSync(out, { recursive: true, force: true }));

test("no CMS_BACKEND: a page that says the studio is not set up, in a script of a few hundred bytes", async () => {
  const result = await buildAdmin({ out, env: {} });
  expect(result.backend).toBeUndefined();
  const script = fs.readFileSync(path.join(out, "studio.js"), "utf8");
  expect(script).toContain("The editing studio is not set up yet");
  expect(script).toContain("docs/editing-studio.md");
  expect(script).not.toMatch(/decap/i);
  expect(script.length).toBeLessThan(4096);
  expect(fs.readFileSync(path.join(out, "csp.txt"), "utf8")).toMatch(/^default-src 'self'; script-src 'self';/);
});

test("CMS_BACKEND=github: Decap with the generated collections for that repository, and one React", async () => {
  const env = { CMS_BACKEND: "github", CMS_REPO: "cyrus/website", CMS_BASE_URL: "https://oauth.example.com" };
  const result = await buildAdmin({ out, env });
  expect(result.backend).toMatchObject({ name: "github", repo: "cyrus/website" });
  const script = fs.readFileSync(path.join(out, "studio.js"), "utf8");
  expect(script).toContain('"cyrus/website"');
  expect(script).toContain('"data/services"');
  expect(script).not.toContain("The editing studio is not set up yet");
  // One React: the studio's 19, also for the site's views in the previews.
  expect(script.match(/"(\d+)\.\d+\.\d+-?\w*"/g)?.filter((v) => /^"1[89]\.\d+\.\d+"$/.test(v))).toEqual(
    expect.arrayContaining(['"19.3.1"']),
  );
  expect(script).not.toContain('"18.3.1"');
  expect(fs.readFileSync(path.join(out, "studio.css"), "utf8")).toContain("--color-brand");
  expect(fs.readFileSync(path.join(out, "csp.txt"), "utf8")).toContain("https://api.github.com");
}, 60_000);

test("the studio's page links an icon that its build writes: the site's logo, 32 pixels, allowed by its policy", async () => {
  await buildAdmin({ out, env: {} });
  const page = fs.readFileSync(path.resolve(__dirname, "../../static/admin/index.html"), "utf8");
  const href = page.match(/<link rel="icon"[^>]* href="([^"]+)"/)?.[1];
  expect(href).toMatch(/^\/admin\//);
  // Served from the folder the build wrote (public/admin on the site, admin/dist/admin for npm run cms).
  const icon = path.join(out, href!.replace(/^\/admin\//, ""));
  expect(await sharp(icon).metadata()).toMatchObject({ format: "png", width: 32, height: 32 });
  expect(fs.readFileSync(path.join(out, "csp.txt"), "utf8")).toMatch(/img-src 'self'/);
});
