/**
 * The Contact page's preview in the studio shows the enquiry form, but it sends nothing: it says so,
 * and pressing Send (or Enter in a field) makes no request; on the published site the same form sends.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
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

test("the Contact preview's form says it sends nothing, and sends nothing", async ({ page }) => {
  const contact = parse(fs.readFileSync(path.join(dir, "data/contact/contact.yaml"), "utf8")) as {
    form: { submit: string; nameLabel?: string };
  };
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET" && !request.url().startsWith(new URL(studio.apiUrl).origin))
      posts.push(`${request.method()} ${request.url()}`);
  });
  await page.goto(studio.url);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("link", { name: "Pages" }).first()).toBeVisible();
  await page.goto(`${studio.url}#/collections/pages/entries/contact`);
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
