/**
 * The studio reads plainly: a folded list entry shows its own words (a paragraph's first ones, a
 * section's heading), the Services menu each service's name; a text over its limit is refused with a
 * sentence naming the limit and its length. A list's header says what it holds in words ("Intro: 2
 * paragraphs"); the Site identity and Navigation previews are the site's own header, menu and footer,
 * the logo at its size. And the Contact page's preview shows the enquiry form but sends nothing: it
 * says so, and pressing Send (or Enter in a field) makes no request.
 */
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { parse } from "yaml";
import { listHeading } from "../../../admin/src/list-heading";
import { FORM_PREVIEW_NOTE } from "../../../admin/src/previews/templates";
import { cmsCollections, type CmsField } from "../../../src/node/content/cms-config";
import { projectRoot } from "../../support/serve";
import { askToPublish, control, open as openIn, studioForTests, test } from "./support/studio-session";

const session = studioForTests("studio-readable");
const readYaml = <T>(file: string) => parse(session.readText(file)) as T;
const open = (page: Page, entry: string) => openIn(page, session.studio, entry);

/** The words a folded entry shows: a paragraph's first 60 characters. */
const firstWords = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

test("folded entries show their own words, and the Services menu each service's name", async ({ page }) => {
  const slug = "project-management";
  const service = readYaml<{ intro: string[]; sections: Array<{ heading: string }> }>(`services/${slug}.yaml`);
  await open(page, `services/entries/${slug}`);
  const titles = (label: string) =>
    control(page, label).locator("[class*=NestedObjectLabel]").filter({ visible: true });
  await expect(titles("Intro")).toHaveText(service.intro.map(firstWords));
  await expect(titles("Sections")).toHaveText(service.sections.map((s) => firstWords(s.heading)));

  const menu = readYaml<{ servicesMenu: string[] }>("navigation/navigation.yaml").servicesMenu;
  const names = menu.map((s) => readYaml<{ menuLabel: string }>(`services/${s}.yaml`).menuLabel);
  await open(page, "site/entries/navigation");
  const chosen = control(page, "Services menu").locator("[class*=singleValue]").filter({ visible: true });
  await expect(chosen).toHaveText(names);
});

test("lists say what they hold; Site identity and Navigation preview as the site's header, menu and footer, no dead button", async ({
  page,
}) => {
  type Site = { name: string; tagline: string; labels: { followUs: string }; social: Array<{ name: string }> };
  const site = readYaml<Site>("site/site.yaml");
  const nav = readYaml<{ main: Array<{ label: string }>; servicesMenu: string[] }>("navigation/navigation.yaml");
  const menuLabels = nav.servicesMenu.map((s) => readYaml<{ menuLabel: string }>(`services/${s}.yaml`).menuLabel);
  const config = cmsCollections(path.join(projectRoot, "data"));
  const fieldIn = (collection: string, name: string, file?: string): CmsField => {
    const c = config.find((x) => x.name === collection)!;
    return (file ? c.files!.find((f) => f.name === file)!.fields : c.fields!).find((f) => f.name === name)!;
  };
  const heading = (list: CmsField, count: number) =>
    control(page, list.label)
      .getByText(listHeading(list.label, count, list.count_words), { exact: true })
      .first();

  // A service's lists: its paragraphs and approvals counted in words.
  const slug = nav.servicesMenu[0]!;
  const service = readYaml<{ intro: string[]; gallery?: string[] }>(`services/${slug}.yaml`);
  await open(page, `services/entries/${slug}`);
  const intro = fieldIn("services", "intro");
  await expect(heading(intro, service.intro.length)).toHaveText(
    new RegExp(`^${intro.label}: ${service.intro.length} ${intro.count_words!.other}$`),
  );
  await expect(heading(fieldIn("services", "gallery"), service.gallery?.length ?? 0)).toBeVisible();

  // Navigation: the header's menu as the site renders it, from the entry; the dropdown names the services.
  await open(page, "site/entries/navigation");
  await expect(heading(fieldIn("site", "servicesMenu", "navigation"), nav.servicesMenu.length)).toBeVisible();
  const preview = page.frameLocator("iframe").first();
  const header = preview.locator("header");
  await expect(header.locator("nav > ul > li > a")).toHaveText(nav.main.map((m) => m.label));
  await expect(header.locator("nav li li a")).toHaveText(menuLabels);
  await expect(header.getByText(site.name, { exact: true })).toBeVisible();
  // The logo at its place's size (the site's --logo-size), not the file's own 512 px or so.
  const logo = header.locator("img");
  await expect
    .poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const sizes = await logo.evaluate((img: HTMLImageElement) => {
    const probe = document.createElement("div");
    probe.style.width = "var(--logo-size)";
    document.body.append(probe);
    return {
      shown: img.getBoundingClientRect().width,
      place: probe.getBoundingClientRect().width,
      file: img.naturalWidth,
    };
  });
  expect(sizes.place).toBeGreaterThan(0);
  expect(sizes.shown).toBe(sizes.place);
  expect(sizes.file).toBeGreaterThan(sizes.place);
  // A saved entry has no deploy preview (the site has none): no "Check for Preview" button that does nothing.
  await expect(page.getByText("Published", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Check for Preview/ })).toHaveCount(0);

  // Site identity: the header and footer follow the entry as it is typed.
  await open(page, "site/entries/site");
  await expect(heading(fieldIn("site", "social", "site"), site.social.length)).toBeVisible();
  await expect(header.locator("nav > ul > li > a")).toHaveText(nav.main.map((m) => m.label));
  const footer = preview.getByRole("contentinfo");
  await expect(footer.getByRole("heading", { name: site.labels.followUs })).toBeVisible();
  await expect(footer.getByRole("link")).toContainText(site.social.map((s) => s.name));
  const tagline = `${site.tagline}, as typed`;
  await control(page, "Tagline").locator("input").fill(tagline);
  await expect(header.getByText(tagline, { exact: true })).toBeVisible();
  await expect(header.locator("img")).toHaveJSProperty("width", sizes.place);
});

test("a text over its limit is refused with a sentence naming the limit and its length", async ({ page }) => {
  const slug = "project-management";
  const before = session.readText(`services/${slug}.yaml`);
  await open(page, `services/entries/${slug}`);
  const long = "A meta title much longer than any search result shows, at 76 characters long";
  expect(long).toHaveLength(76);
  await control(page, "Meta title").locator("input").fill(long);
  await askToPublish(page);
  const message = page.getByText("Meta title: at most 60 characters (this one has 76)", { exact: true });
  await expect(message).toBeVisible();
  await expect(message).toHaveCSS("text-transform", "none");
  expect(session.readText(`services/${slug}.yaml`)).toBe(before);
});

test("the Contact preview's form says it sends nothing, and sends nothing", async ({ page }) => {
  const contact = readYaml<{ form: { submit: string } }>("contact/contact.yaml");
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET" && !request.url().startsWith(new URL(session.studio.apiUrl).origin))
      posts.push(`${request.method()} ${request.url()}`);
  });
  await open(page, "pages/entries/contact");
  const preview = page.frameLocator("iframe").first();
  await expect(preview.getByText(FORM_PREVIEW_NOTE)).toBeVisible();
  const send = preview.getByRole("button", { name: contact.form.submit });
  await expect(send).toBeDisabled();
  const form = preview.locator("form").filter({ has: send });
  await expect(form).not.toHaveAttribute("action");
  // Enter in a field submits a form in a browser: not this one.
  await form.locator("input").first().press("Enter");
  await send.click({ force: true });
  await expect(preview.getByRole("status")).toBeEmpty();
  expect(posts).toEqual([]);
});
