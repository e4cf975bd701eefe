/**
 * @jest-environment node
 *
 * Adding a service is adding data, nothing else (docs/editing-content.md, "Adding a service"): in a
 * copy of the project, a new file data/services/<slug>.yaml and its slug in the dropdown's list make,
 * after a build, its page, its card on /services, its dropdown entry on every page and its sitemap
 * entry. Nothing in src/ or in the tests names it.
 */
import fs from "node:fs";
import path from "node:path";
import { parseDocument } from "yaml";
import { content } from "../support/content";
import { copyProject, gatsbyToEnd } from "../support/project-copy";

const slug = "example-new-service";
const template = content.services[0]!;
const added = {
  title: "Example New Service",
  menuLabel: "Example Service",
  cardTitle: "Example New Service Card",
  order: Math.max(...content.services.map((s) => s.order)) + 10,
};

let dir: string;
let build: Awaited<ReturnType<typeof gatsbyToEnd>>;

beforeAll(async () => {
  dir = copyProject("cyrus-new-service-");
  // The steps of docs/editing-content.md: copy a service file, name it after the new slug, change its
  // fields (images may be reused or dropped into data/services/images/), list the slug in the dropdown.
  const services = path.join(dir, "data/services");
  const doc = parseDocument(fs.readFileSync(path.join(services, `${template.slug}.yaml`), "utf8"));
  doc.set("slug", slug);
  for (const [field, value] of Object.entries(added)) doc.set(field, value);
  // As the editing studio writes an image path: without "./" (both forms are relative to the file).
  doc.set("cardImage", template.cardImage.replace(/^\.\//, ""));
  fs.writeFileSync(path.join(services, `${slug}.yaml`), String(doc));
  const navFile = path.join(dir, "data/navigation/navigation.yaml");
  const nav = parseDocument(fs.readFileSync(navFile, "utf8"));
  nav.addIn(["servicesMenu"], slug);
  fs.writeFileSync(navFile, String(nav));

  build = await gatsbyToEnd(dir, ["build"], 360_000);
}, 400_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const html = (route: string) => fs.readFileSync(path.join(dir, "public", route, "index.html"), "utf8");

test("the copy builds", () => {
  expect(build.output).not.toMatch(/ERROR/);
  expect(build.code).toBe(0);
});

test("the new service has its page at /services/<slug>, with its title", () => {
  expect(html(`services/${slug}`)).toMatch(new RegExp(`<h1[^>]*>${added.title}</h1>`));
});

test("its card is on /services, last, as its order says", () => {
  const main = html("services").match(/<main.*<\/main>/s)![0];
  const cards = [...main.matchAll(/<h3[^>]*><a[^>]+href="\/services\/([a-z0-9-]+)"[^>]*>([^<]+)<\/a><\/h3>/g)];
  expect(cards.map((m) => m[1]).at(-1)).toBe(slug);
  expect(cards.map((m) => m[2]).at(-1)).toBe(added.cardTitle);
});

test("the Services dropdown of every page lists it, last", () => {
  for (const route of ["home", "services", `services/${slug}`]) {
    const nav = html(route).match(/<nav aria-label="Main".*?<\/nav>/s)![0];
    const entries = [...nav.matchAll(/<a[^>]+href="(\/services\/[a-z0-9-]+)"[^>]*>([^<]+)<\/a>/g)];
    expect(entries.at(-1)?.slice(1)).toEqual([`/services/${slug}`, added.menuLabel]);
  }
});

test("the sitemap lists it", () => {
  const sitemaps = fs.readdirSync(path.join(dir, "public")).filter((f) => /^sitemap-\d+\.xml$/.test(f));
  const xml = sitemaps.map((f) => fs.readFileSync(path.join(dir, "public", f), "utf8")).join("");
  expect(xml).toContain(`/services/${slug}</loc>`);
});
