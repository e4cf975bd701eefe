/**
 * The built site as a visitor's browser receives it: every route the content makes answers
 * 200 at its exact path with its own content, "/" sends the visitor on to /home, and an unknown path
 * gets the 404 page. Needs `gatsby build` first (npm run test:site does it).
 */
import fs from "node:fs";
import path from "node:path";
import { content, routes, serviceAt } from "../support/content";
import { projectRoot, serveBuiltSite, type RunningSite } from "../support/serve";

/** The page's main heading, as the data gives it. */
function expectedHeading(route: string): string {
  const service = serviceAt(route);
  if (service) return service.title;
  const added = content.pages.find((p) => `/${p.slug}` === route);
  if (added) return added.title;
  const page = {
    "/home": content.home,
    "/aboutus": content.about,
    "/services": content.servicesPage,
    "/contact": content.contact,
    "/activities": content.activities,
    "/whycyrus": content.whyCyrus,
  }[route];
  return page?.heading ?? `(no page for ${route})`;
}

const htmlText = (html: string) =>
  html
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"');

let site: RunningSite;

beforeAll(async () => {
  if (!fs.existsSync(path.join(projectRoot, "public", "index.html"))) {
    throw new Error("public/ has not been built: run `npm run build` (or `npm run test:site`, which builds) first");
  }
  site = await serveBuiltSite();
}, 90_000);

afterAll(async () => {
  await site?.stop();
});

test("the routes are distinct: one page per navigation entry, per service and per added page made ready", () => {
  const menu = content.navigation.main.map((item) => item.to);
  const ready = content.pages.filter((p) => !p.inProgress).map((p) => `/${p.slug}`);
  expect(routes).toHaveLength(new Set(routes).size);
  expect(new Set(routes)).toEqual(new Set([...menu, ...content.services.map((s) => `/services/${s.slug}`), ...ready]));
});

test("an added page still being written (inProgress) is not in the production build, nor in its sitemap", async () => {
  const sitemaps = fs.readdirSync(path.join(projectRoot, "public")).filter((f) => /^sitemap-\d+\.xml$/.test(f));
  const xml = sitemaps.map((f) => fs.readFileSync(path.join(projectRoot, "public", f), "utf8")).join("");
  for (const page of content.pages.filter((p) => p.inProgress)) {
    expect(fs.existsSync(path.join(projectRoot, "public", page.slug))).toBe(false);
    expect(fs.existsSync(path.join(projectRoot, "public", "page-data", page.slug))).toBe(false);
    expect(xml).not.toContain(`/${page.slug}</loc>`);
    expect((await fetch(`${site.origin}/${page.slug}`, { redirect: "manual" })).status).toBe(404);
  }
});

test.each(routes)("%s answers 200 with its heading", async (route) => {
  const res = await fetch(`${site.origin}${route}`, { redirect: "manual" });
  expect(res.status).toBe(200);
  const html = htmlText(await res.text());
  const h1 = html.match(/<h1[^>]*>(.*?)<\/h1>/s)?.[1]?.replace(/<[^>]+>/g, "");
  expect(h1).toBe(expectedHeading(route));
  expect(html).toContain('<html lang="en"');
});

test("every service page has a Back link to /services", async () => {
  for (const { slug } of content.services) {
    const html = await (await fetch(`${site.origin}/services/${slug}`)).text();
    expect(html).toMatch(new RegExp(`<a[^>]+href="/services"[^>]*>.*?${content.site.labels.back}</a>`, "s"));
  }
});

test("/ lands on /home with and without JavaScript", async () => {
  const res = await fetch(`${site.origin}/`, { redirect: "manual" });
  const html = await res.text();
  expect(html).toMatch(/<meta http-equiv="refresh" content="0; url=\/home"/);
  expect(html).toMatch(/<a href="\/home">/);
  expect(html).toMatch(/<link rel="canonical" href="[^"]+\/home"/);
});

test("an unknown path answers 404 with the not-found page and its links", async () => {
  const res = await fetch(`${site.origin}/no-such-page`);
  expect(res.status).toBe(404);
  const html = htmlText(await res.text());
  expect(html).toContain(content.notFound.heading);
  for (const href of ["/home", "/services", "/contact"]) expect(html).toContain(`href="${href}"`);
});
