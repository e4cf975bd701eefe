/**
 * @jest-environment jsdom
 *
 * What crawlers and link previews read, checked on the built public/ folder (after `gatsby build`):
 * head tags, structured data, sitemap, robots.txt, and that every internal link and image resolves.
 */
import fs from "node:fs";
import path from "node:path";
import { content, routes } from "../support/content";
import { projectRoot } from "../support/serve";

const publicDir = path.join(projectRoot, "public");
const siteUrl = (process.env.SITE_URL ?? "https://www.example.com").replace(/\/+$/, "");
const { services } = content;

const resultPages = ["/contact/sent", "/contact/error", "/contact/incomplete"];

/** The file a static host serves for a route: /home -> public/home/index.html. */
const htmlFileFor = (route: string) => path.join(publicDir, route === "/" ? "" : route, "index.html");

function load(file: string): Document {
  return new DOMParser().parseFromString(fs.readFileSync(file, "utf8"), "text/html");
}

const pages = new Map<string, Document>();
beforeAll(() => {
  if (!fs.existsSync(path.join(publicDir, "index.html"))) {
    throw new Error("public/ has not been built: run `npm run build` (or `npm run test:site`, which builds) first");
  }
  for (const route of routes) if (fs.existsSync(htmlFileFor(route))) pages.set(route, load(htmlFileFor(route)));
});

const meta = (doc: Document, selector: string) => doc.querySelector(selector)?.getAttribute("content") ?? null;
/** A JSON-LD block, with the fields the tests read. */
interface JsonLd {
  "@type"?: string;
  itemListElement?: Array<{ position: number; name: string; item: string }>;
  address: { streetAddress: string };
  logo: { url: string };
  contactPoint: unknown[];
  sameAs: string[];
  [key: string]: unknown;
}
const jsonLd = (doc: Document): JsonLd[] =>
  Array.from(doc.querySelectorAll('script[type="application/ld+json"]')).map((s) => JSON.parse(s.textContent ?? ""));

test.each(routes)("%s is built at the path a static host serves", (route) => {
  expect(fs.existsSync(htmlFileFor(route))).toBe(true);
});

test("every route has its own title ('Page – Cyrus') and description, in English", () => {
  const titles = new Set<string>();
  const descriptions = new Set<string>();
  for (const route of routes) {
    const doc = pages.get(route)!;
    expect(doc.documentElement.getAttribute("lang")).toBe("en");
    expect(doc.title).toMatch(/^.+ – Cyrus$/);
    const description = meta(doc, 'meta[name="description"]');
    expect(description?.length).toBeGreaterThan(50);
    titles.add(doc.title);
    descriptions.add(description!);
  }
  expect(titles.size).toBe(routes.length);
  expect(descriptions.size).toBe(routes.length);
});

test.each(routes)("%s has an absolute canonical URL, Open Graph and Twitter tags", (route) => {
  const doc = pages.get(route)!;
  const url = `${siteUrl}${route}`;
  expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(url);
  expect(meta(doc, 'meta[property="og:url"]')).toBe(url);
  expect(meta(doc, 'meta[property="og:title"]')).toBe(doc.title);
  expect(meta(doc, 'meta[property="og:description"]')).toBe(meta(doc, 'meta[name="description"]'));
  expect(meta(doc, 'meta[name="twitter:card"]')).toBe("summary_large_image");
  expect(meta(doc, 'meta[name="theme-color"]')).toMatch(/^#[0-9a-f]{6}$/i);
  const image = meta(doc, 'meta[property="og:image"]')!;
  expect(image.startsWith(`${siteUrl}/`)).toBe(true);
  expect(fs.existsSync(path.join(publicDir, new URL(image).pathname))).toBe(true);
  expect([meta(doc, 'meta[property="og:image:width"]'), meta(doc, 'meta[property="og:image:height"]')]).toEqual([
    "1200",
    "630",
  ]);
});

test("the share image really is 1200×630", async () => {
  const sharp = (await import("sharp")).default;
  const image = meta(pages.get("/home")!, 'meta[property="og:image"]')!;
  const { width, height } = await sharp(path.join(publicDir, new URL(image).pathname)).metadata();
  expect([width, height]).toEqual([1200, 630]);
});

test.each(routes)("%s describes the organisation in JSON-LD", (route) => {
  const [org] = jsonLd(pages.get(route)!);
  expect(org).toMatchObject({
    "@context": "https://schema.org",
    "@type": "MedicalOrganization",
    "@id": `${siteUrl}/#organization`,
    name: "Cyrus",
    url: `${siteUrl}/home`,
    foundingDate: "2022",
    address: {
      "@type": "PostalAddress",
      addressLocality: "Chennai",
      addressRegion: "Tamil Nadu",
      postalCode: "600032",
      addressCountry: "IN",
    },
  });
  expect(org!.address.streetAddress).toMatch(/Guindy/);
  expect(org!.logo.url.startsWith(`${siteUrl}/`)).toBe(true);
  expect(fs.existsSync(path.join(publicDir, new URL(org!.logo.url).pathname))).toBe(true);
  expect(org!.contactPoint[0]).toMatchObject({
    "@type": "ContactPoint",
    telephone: expect.any(String),
    email: expect.any(String),
  });
  expect(org!.sameAs).toEqual([
    expect.stringContaining("facebook.com"),
    expect.stringContaining("instagram.com"),
    expect.stringContaining("linkedin.com"),
  ]);
});

test.each(services.map((s) => [s.slug, s] as const))(
  "/services/%s has Service and BreadcrumbList JSON-LD",
  (slug, service) => {
    const route = `/services/${slug}`;
    const blocks = jsonLd(pages.get(route)!);
    expect(blocks.find((b) => b["@type"] === "Service")).toEqual({
      "@context": "https://schema.org",
      "@type": "Service",
      name: service.title,
      description: service.description,
      url: `${siteUrl}${route}`,
      provider: { "@id": `${siteUrl}/#organization` },
      areaServed: "Worldwide",
    });
    const crumbs = blocks.find((b) => b["@type"] === "BreadcrumbList")!.itemListElement;
    expect(crumbs!.map((c) => [c.position, c.name, c.item])).toEqual([
      [1, "Home", `${siteUrl}/home`],
      [2, "Services", `${siteUrl}/services`],
      [3, service.title, `${siteUrl}${route}`],
    ]);
  },
);

test("the sitemap lists exactly the content routes, with the site URL", () => {
  const index = fs.readFileSync(path.join(publicDir, "sitemap-index.xml"), "utf8");
  const sitemaps = [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  expect(sitemaps.length).toBeGreaterThan(0);
  const locs = sitemaps.flatMap((url) => {
    expect(url.startsWith(`${siteUrl}/`)).toBe(true);
    const xml = fs.readFileSync(path.join(publicDir, new URL(url).pathname), "utf8");
    return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
  });
  expect([...locs].sort()).toEqual(routes.map((r) => `${siteUrl}${r}`).sort());
});

test("robots.txt allows everything and names the sitemap", () => {
  const robots = fs.readFileSync(path.join(publicDir, "robots.txt"), "utf8");
  expect(robots).toMatch(/^User-agent: \*$/m);
  expect(robots).toMatch(/^Allow: \/$/m);
  expect(robots).not.toMatch(/^Disallow: \/\s*$/m);
  expect(robots).toContain(`Sitemap: ${siteUrl}/sitemap-index.xml`);
});

test("the manifest and favicon are made from the logo", () => {
  const doc = pages.get("/home")!;
  const manifestHref = doc.querySelector('link[rel="manifest"]')?.getAttribute("href");
  expect(manifestHref).toBeTruthy();
  const manifest = JSON.parse(fs.readFileSync(path.join(publicDir, manifestHref!), "utf8"));
  expect(manifest).toMatchObject({ name: "Cyrus", start_url: "/home" });
  expect(manifest.icons.length).toBeGreaterThan(3);
  for (const icon of manifest.icons) expect(fs.existsSync(path.join(publicDir, icon.src.split("?")[0]))).toBe(true);
  const favicon = doc.querySelector('link[rel="icon"]')?.getAttribute("href");
  expect(favicon && fs.existsSync(path.join(publicDir, favicon.split("?")[0]!))).toBe(true);
});

test("/ forwards to /home without JavaScript and is not indexed as a page of its own", () => {
  const doc = load(path.join(publicDir, "index.html"));
  expect(meta(doc, 'meta[http-equiv="refresh"]')).toBe("0; url=/home");
  expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`${siteUrl}/home`);
  expect(doc.querySelector('a[href="/home"]')).not.toBeNull();
});

test("the pages a form posted without JavaScript lands on are noindex, out of the sitemap, each with its own title", () => {
  const titles = resultPages.map((route) => {
    const doc = load(htmlFileFor(route));
    expect(meta(doc, 'meta[name="robots"]')).toMatch(/noindex/);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute("href")).toBe(`${siteUrl}${route}`);
    expect(doc.querySelector('a[href="/contact"]')).not.toBeNull();
    return doc.querySelector("title")?.textContent;
  });
  expect(new Set(titles).size).toBe(resultPages.length);
  const sitemap = fs
    .readdirSync(publicDir)
    .filter((f) => f.startsWith("sitemap"))
    .map((f) => fs.readFileSync(path.join(publicDir, f), "utf8"))
    .join("");
  for (const route of resultPages) expect(sitemap).not.toContain(route);
});

test("the 404 page is marked noindex and links to Home, Services and Contact Us", () => {
  const doc = load(path.join(publicDir, "404.html"));
  expect(meta(doc, 'meta[name="robots"]')).toMatch(/noindex/);
  const links = Array.from(doc.querySelectorAll("main a")).map((a) => a.getAttribute("href"));
  expect(links).toEqual(expect.arrayContaining(["/home", "/services", "/contact"]));
});

/** Every URL a page refers to inside the site: links, images (and their lazy data- twins), icons. */
function internalReferences(doc: Document): string[] {
  const refs: string[] = [];
  const add = (value: string | null) => value && refs.push(value);
  doc.querySelectorAll("a[href]").forEach((a) => add(a.getAttribute("href")));
  doc.querySelectorAll("img, source").forEach((el) => {
    for (const attr of ["src", "data-src"]) add(el.getAttribute(attr));
    for (const attr of ["srcset", "data-srcset"]) {
      el.getAttribute(attr)
        ?.split(",")
        .forEach((entry) => add(entry.trim().split(/\s+/)[0] ?? null));
    }
  });
  doc.querySelectorAll("link[href]").forEach((l) => add(l.getAttribute("href")));
  return refs.filter((ref) => ref.startsWith("/") && !ref.startsWith("//") && !ref.startsWith("data:"));
}

function resolves(ref: string): boolean {
  const pathname = decodeURIComponent(ref.split(/[?#]/)[0]!);
  const file = path.join(publicDir, pathname);
  if (fs.existsSync(file) && fs.statSync(file).isFile()) return true;
  return fs.existsSync(path.join(file, "index.html"));
}

test("every internal link, image src and srcset entry on every page resolves to a file in public/", () => {
  const broken: string[] = [];
  const files = [
    ...routes.map(htmlFileFor),
    ...resultPages.map(htmlFileFor),
    path.join(publicDir, "index.html"),
    path.join(publicDir, "404.html"),
  ];
  let checked = 0;
  for (const file of files) {
    for (const ref of internalReferences(load(file))) {
      checked += 1;
      if (!resolves(ref)) broken.push(`${path.relative(publicDir, file)}: ${ref}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(1000);
});
