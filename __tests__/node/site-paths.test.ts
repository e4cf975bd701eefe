import fs from "node:fs";
import path from "node:path";
import { FIXED_PAGES, RESERVED_SEGMENTS, slugClash } from "../../src/node/content/site-paths";
import { projectRoot } from "../support/serve";

test("the fixed pages are src/pages' own, each with the data file it shows", () => {
  const pages = fs
    .readdirSync(path.join(projectRoot, "src/pages"))
    .map((file) => file.replace(/\.tsx$/, ""))
    .filter((name) => name !== "index" && name !== "404");
  expect(Object.keys(FIXED_PAGES).sort()).toEqual(pages.map((name) => `/${name}`).sort());
  for (const file of Object.values(FIXED_PAGES)) expect(fs.existsSync(path.join(projectRoot, file))).toBe(true);
});

test("every path the server answers itself is reserved", () => {
  const conf = fs.readFileSync(path.join(projectRoot, "deploy/nginx/cyrus.conf.template"), "utf8");
  // Each `location` prefix of the site's nginx configuration (/admin/, /api/, /oauth/, /hooks/, …).
  const served = [...conf.matchAll(/location\s+(?:\^~|=)?\s*\/([a-z0-9_-]+)/g)].map((m) => m[1]!);
  expect(served.length).toBeGreaterThan(0);
  for (const segment of served) {
    if (segment.startsWith("sitemap")) continue;
    expect({ segment, reserved: segment in RESERVED_SEGMENTS || `/${segment}` in FIXED_PAGES }).toEqual({
      segment,
      reserved: true,
    });
  }
});

test("a clash says which page or what the site uses the path for; a free slug has none", () => {
  expect(slugClash("aboutus")).toBe(
    "the page /aboutus is one of the site's fixed pages, whose words are in data/about/about.yaml",
  );
  expect(slugClash("admin")).toBe("the site uses /admin for the editing studio");
  expect(slugClash("sitemap-0")).toMatch(/sitemap/);
  expect(slugClash("dev-404-page")).toMatch(/development server/);
  expect(slugClash("careers")).toBeUndefined();
  expect(slugClash("services-overview")).toBeUndefined();
});
