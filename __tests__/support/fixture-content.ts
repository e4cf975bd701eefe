/**
 * The content the fixture site adds to its copy of data/, by the steps of docs/editing-content.md
 * ("Adding a service", "Adding a page"): nothing in src/ or in the tests names it.
 */
import fs from "node:fs";
import path from "node:path";
import { isMap, isSeq, parseDocument } from "yaml";
import { everySectionPage } from "./added-pages";
import { content } from "./content";

const template = content.services[0]!;

/** The added service: a copy of the first one under a new slug, ordered last. */
export const addedService = {
  slug: "example-new-service",
  title: "Example New Service",
  menuLabel: "Example Service",
  cardTitle: "Example New Service Card",
  order: Math.max(...content.services.map((s) => s.order)) + 10,
};

/** The page with a section of every type, made ready in the copy. */
export const fixturePage = everySectionPage();

/**
 * A copy of that page without its slideshow (the one section that needs a script), made ready but
 * in no menu: it must ship no script, where the page it copies ships the slideshow's.
 */
export const fixturePageWithoutSlideshow = {
  slug: `${fixturePage.slug}-without-slideshow`,
  title: `${fixturePage.title} without a slideshow`,
};

/** Writes the added content into the copy at `root`. */
export function addFixtureContent(root: string): void {
  // Copy a service file, name it after the new slug, change its fields (images may be reused or
  // dropped into data/services/images/), list the slug in the dropdown.
  const services = path.join(root, "data/services");
  const doc = parseDocument(fs.readFileSync(path.join(services, `${template.slug}.yaml`), "utf8"));
  for (const [field, value] of Object.entries(addedService)) doc.set(field, value);
  // As the editing studio writes an image path: without "./" (both forms are relative to the file).
  doc.set("cardImage", template.cardImage.replace(/^\.\//, ""));
  fs.writeFileSync(path.join(services, `${addedService.slug}.yaml`), String(doc));
  const navFile = path.join(root, "data/navigation/navigation.yaml");
  const nav = parseDocument(fs.readFileSync(navFile, "utf8"));
  nav.addIn(["servicesMenu"], addedService.slug);
  // The page made ready, and one line of the menu naming it.
  nav.addIn(["main"], nav.createNode({ label: fixturePage.title, to: `/${fixturePage.slug}` }));
  fs.writeFileSync(navFile, String(nav));
  makePageReady(root, fixturePage.slug);
  // The copy, as an editor copies a page: another file under data/pages/, its slug the file's name.
  const copy = parseDocument(fs.readFileSync(path.join(root, "data/pages", `${fixturePage.slug}.yaml`), "utf8"));
  copy.set("slug", fixturePageWithoutSlideshow.slug);
  copy.set("title", fixturePageWithoutSlideshow.title);
  const sections = copy.get("sections");
  if (!isSeq(sections)) throw new Error(`data/pages/${fixturePage.slug}.yaml has no list of sections`);
  sections.items = sections.items.filter((section) => !(isMap(section) && section.get("type") === "slideshow"));
  fs.writeFileSync(path.join(root, "data/pages", `${fixturePageWithoutSlideshow.slug}.yaml`), String(copy));
}

/** Removes `inProgress` from data/pages/<slug>.yaml of the copy at `root`, as an editor does when the page is done. */
export function makePageReady(root: string, slug: string): void {
  const pageFile = path.join(root, "data/pages", `${slug}.yaml`);
  const pageDoc = parseDocument(fs.readFileSync(pageFile, "utf8"));
  pageDoc.delete("inProgress");
  fs.writeFileSync(pageFile, String(pageDoc));
}
