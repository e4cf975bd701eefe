/**
 * @jest-environment node
 *
 * The editing studio is in the build (public/admin) and nowhere else: no visitor's page, page-data or
 * script names any of its files, it is not in the sitemap, robots.txt keeps crawlers out and the page
 * itself asks not to be indexed. (Its bundle is built by esbuild, apart from webpack's chunks.)
 */
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "../support/serve";

const publicDir = path.join(projectRoot, "public");
const adminDir = path.join(publicDir, "admin");

function files(dir: string, pattern: RegExp): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === adminDir ? [] : files(full, pattern);
    return pattern.test(entry.name) ? [full] : [];
  });
}

test("the build holds the studio: its page, script and policy", () => {
  for (const name of ["index.html", "studio.js", "csp.txt"])
    expect(fs.existsSync(path.join(adminDir, name))).toBe(true);
  const html = fs.readFileSync(path.join(adminDir, "index.html"), "utf8");
  expect(html).toMatch(/<meta name="robots" content="noindex, nofollow"/);
  expect(html).toContain('<script src="/admin/studio.js"></script>');
});

test("no visitor's page, page-data or script names a file of the studio", () => {
  const visitorFiles = files(publicDir, /\.(html|js|json|css|webmanifest|xml|txt)$/).filter(
    (f) => !f.endsWith("robots.txt"),
  );
  expect(visitorFiles.length).toBeGreaterThan(50);
  const naming = visitorFiles.filter((file) =>
    /\/admin\b|studio\.(js|css)|decap-cms/i.test(fs.readFileSync(file, "utf8")),
  );
  expect(naming.map((f) => path.relative(publicDir, f))).toEqual([]);
});

test("robots.txt keeps crawlers out of /admin, and the sitemap does not list it", () => {
  expect(fs.readFileSync(path.join(publicDir, "robots.txt"), "utf8")).toMatch(/^Disallow: \/admin$/m);
  for (const sitemap of files(publicDir, /^sitemap-.*\.xml$/))
    expect(fs.readFileSync(sitemap, "utf8")).not.toContain("/admin");
});
