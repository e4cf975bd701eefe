/**
 * The built site as a visitor's browser receives it: every route of the spec's route table answers
 * 200 at its exact path with its own content, "/" sends the visitor on to /home, and an unknown path
 * gets the 404 page. Needs `gatsby build` first (npm run test:site does it).
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { specRoutes } from "../support/routes";
import { projectRoot, serveBuiltSite, type RunningSite } from "../support/serve";

const load = (file: string) => parse(fs.readFileSync(path.join(projectRoot, "data", file), "utf8"));
const services: Array<{ slug: string; title: string }> = load("services/services.yaml");

/** The page's main heading, as the data gives it. */
function expectedHeading(route: string): string {
  const slug = route.match(/^\/services\/(.+)$/)?.[1];
  if (slug) return services.find((s) => s.slug === slug)?.title ?? `(no service ${slug})`;
  const file = {
    "/home": "home/home.yaml",
    "/aboutus": "about/about.yaml",
    "/services": "services-page/services-page.yaml",
    "/contact": "contact/contact.yaml",
    "/activities": "activities/activities.yaml",
    "/whycyrus": "why-cyrus/why-cyrus.yaml",
  }[route];
  return load(file as string).heading;
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

test("the route table has the spec's 25 routes", () => {
  expect(new Set(specRoutes).size).toBe(25);
});

test.each(specRoutes)("%s answers 200 with its heading", async (route) => {
  const res = await fetch(`${site.origin}${route}`, { redirect: "manual" });
  expect(res.status).toBe(200);
  const html = htmlText(await res.text());
  const h1 = html.match(/<h1[^>]*>(.*?)<\/h1>/s)?.[1]?.replace(/<[^>]+>/g, "");
  expect(h1).toBe(expectedHeading(route));
  expect(html).toContain('<html lang="en"');
});

test("every service page has a Back link to /services", async () => {
  for (const { slug } of services) {
    const html = await (await fetch(`${site.origin}/services/${slug}`)).text();
    expect(html).toMatch(/<a[^>]+href="\/services"[^>]*>.*?Back<\/a>/s);
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
  expect(html).toContain(load("not-found/not-found.yaml").heading);
  for (const href of ["/home", "/services", "/contact"]) expect(html).toContain(`href="${href}"`);
});
