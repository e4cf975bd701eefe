/**
 * The studio reads plainly: a folded list entry shows its own words (a paragraph's first ones, a
 * section's heading), the Services menu each service's name; a text over its limit is refused with a
 * sentence naming the limit and its length. And the Contact page's preview shows the enquiry form but
 * sends nothing: it says so, and pressing Send (or Enter in a field) makes no request.
 */
import { expect, test, type Page } from "@playwright/test";
import { parse } from "yaml";
import { FORM_PREVIEW_NOTE } from "../../../admin/src/previews/templates";
import { control, open as openIn, studioForTests } from "./support/studio-session";

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

test("a text over its limit is refused with a sentence naming the limit and its length", async ({ page }) => {
  const slug = "project-management";
  const before = session.readText(`services/${slug}.yaml`);
  await open(page, `services/entries/${slug}`);
  const long = "A meta title much longer than any search result shows, at 76 characters long";
  expect(long).toHaveLength(76);
  await control(page, "Meta title").locator("input").fill(long);
  await page.getByRole("button", { name: "Publish" }).first().click();
  await page.getByText("Publish now", { exact: true }).filter({ visible: true }).first().click();
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
