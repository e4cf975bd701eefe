/**
 * The studio reads plainly: a folded list entry shows its own words (a paragraph's first ones, a
 * section's heading), the Services menu each service's name; a text over its limit is refused with a
 * sentence naming the limit and its length. And the Contact page's preview shows the enquiry form but
 * sends nothing: it says so, and pressing Send (or Enter in a field) makes no request.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { parse } from "yaml";
import { startStudio, type RunningStudio } from "../../../admin/scripts/cms";
import { FORM_PREVIEW_NOTE } from "../../../admin/src/previews/templates";
import { freePort, projectRoot } from "../../support/serve";

let dir: string;
let studio: RunningStudio;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-contact-preview-"));
  fs.cpSync(path.join(projectRoot, "data"), path.join(dir, "data"), { recursive: true });
  studio = await startStudio({
    repo: dir,
    port: await freePort(),
    apiPort: await freePort(),
    out: path.join(dir, "studio"),
  });
});

test.afterAll(async () => {
  await studio?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const readYaml = <T>(file: string) => parse(fs.readFileSync(path.join(dir, "data", file), "utf8")) as T;

async function open(page: Page, entry: string): Promise<void> {
  await page.goto(studio.url);
  const login = page.getByRole("button", { name: "Login" });
  const pages = page.getByRole("link", { name: "Pages" }).first();
  await expect(login.or(pages)).toBeVisible();
  if (await login.isVisible()) await login.click();
  await expect(pages).toBeVisible();
  await page.goto(`${studio.url}#/collections/${entry}`);
}

const control = (page: Page, label: string) =>
  page
    .locator("[aria-label$=' field']")
    .filter({ has: page.locator("label", { hasText: new RegExp(`^${label}( \\(optional\\))?$`) }) })
    .first();

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
  const before = fs.readFileSync(path.join(dir, "data/services", `${slug}.yaml`), "utf8");
  await open(page, `services/entries/${slug}`);
  const long = "A meta title much longer than any search result shows, at 76 characters long";
  expect(long).toHaveLength(76);
  await control(page, "Meta title").locator("input").fill(long);
  await page.getByRole("button", { name: "Publish" }).first().click();
  await page.getByText("Publish now", { exact: true }).filter({ visible: true }).first().click();
  const message = page.getByText("Meta title: at most 60 characters (this one has 76)", { exact: true });
  await expect(message).toBeVisible();
  await expect(message).toHaveCSS("text-transform", "none");
  expect(fs.readFileSync(path.join(dir, "data/services", `${slug}.yaml`), "utf8")).toBe(before);
});

test("the Contact preview's form says it sends nothing, and sends nothing", async ({ page }) => {
  const contact = parse(fs.readFileSync(path.join(dir, "data/contact/contact.yaml"), "utf8")) as {
    form: { submit: string; nameLabel?: string };
  };
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET" && !request.url().startsWith(new URL(studio.apiUrl).origin))
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
