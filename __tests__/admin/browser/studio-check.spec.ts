/**
 * The studio runs the content check's rules on an entry before saving it, in the check's own words, and
 * sends no save when they refuse it: in the real studio against decap-server, on a copy of data/, the
 * issue's three cases. A page whose text has a javascript: link and a <script> (put there outside the
 * studio, as the preview drops both quietly), a menu link typed with a slip (/career), and a service's
 * banner whose path differs from the picture's name only in capitals. Each refusal holds every message
 * the check (checkFileText, run here on the same text) gives for that file, word for word; the copy is
 * unchanged byte for byte.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { stringify } from "yaml";
import { checkFileText } from "../../../src/node/content/validate";
import { askToPublish, control, entryBar, open as openIn, studioForTests, test } from "./support/studio-session";

test.describe.configure({ mode: "serial" });

const session = studioForTests("studio-check");
const open = (page: Page, entry: string) => openIn(page, session.studio, entry);
const dataDir = () => path.join(session.dir, "data");

/** Every file of the copy and its bytes. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dataDir(), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files.set(path.relative(dataDir(), file), fs.readFileSync(file).toString("base64"));
  }
  return files;
}

/** The check's messages for `file` (under data/) holding `text`. */
const checkSays = (file: string, text: string) => checkFileText(dataDir(), file, text).map((p) => p.message);

/** Publishes; the refusal holds each of the check's messages; no save was sent, nothing written. */
async function expectRefusedInTheCheckWords(page: Page, messages: string[]): Promise<void> {
  expect(messages.length).toBeGreaterThan(0);
  const saves: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && /persistEntry/.test(request.postData() ?? "")) saves.push(request.url());
  });
  const before = snapshot();
  await askToPublish(page);
  const refusal = page.getByText(/the content check would refuse it, so nothing was saved/);
  await expect(refusal).toBeVisible();
  for (const message of messages) await expect(refusal).toContainText(message);
  await page.waitForTimeout(1000);
  await expect(page.getByText("Entry saved")).toHaveCount(0);
  expect(saves).toEqual([]);
  expect(snapshot()).toEqual(before);
}

test("a text with a javascript: link and a <script> is refused before saving, in the check's words", async ({
  page,
}) => {
  const text = stringify({
    slug: "careers",
    title: "Careers",
    description: "Work with us.",
    sections: [{ type: "text", body: "Click [here](javascript:alert(1)).\n\n<script>alert(2)</script>\n" }],
  });
  fs.writeFileSync(path.join(dataDir(), "pages/careers.yaml"), text);
  const messages = checkSays("pages/careers.yaml", text);
  expect(messages.join("\n")).toMatch(/javascript/);
  expect(messages.join("\n")).toMatch(/script/i);
  await open(page, "added-pages/entries/careers");
  await control(page, "Title").locator("input").fill("Careers at Cyrus");
  await expectRefusedInTheCheckWords(page, messages);
  fs.rmSync(path.join(dataDir(), "pages/careers.yaml"));
});

test("a menu link to /career (a slip) is refused before saving, with the check's 'did you mean'", async ({ page }) => {
  const file = "navigation/navigation.yaml";
  const messages = checkSays(file, session.readText(file).replace('to: "/home"', 'to: "/career"'));
  expect(messages.join("\n")).toContain('links to "/career", but no page of the site has that address');
  await open(page, "site/entries/navigation");
  await entryBar(control(page, "Main"), 0).locator("button").first().click();
  // The link's own To (the list's control holds every link's).
  await page
    .locator("[aria-label='string field']")
    .filter({ has: page.locator("label", { hasText: /^To$/ }) })
    .first()
    .locator("input")
    .fill("/career");
  await expectRefusedInTheCheckWords(page, messages);
});

test("a picture's path differing from its file's name only in capitals is refused, with the name to write", async ({
  page,
}) => {
  const file = "services/study-design.yaml";
  const text = session.readText(file).replace("./images/study-design-banner.jpg", "./images/Study-Design-Banner.jpg");
  fs.writeFileSync(path.join(dataDir(), file), text);
  const messages = checkSays(file, text);
  expect(messages.join("\n")).toContain('did you mean "./images/study-design-banner.jpg"');
  await open(page, "services/entries/study-design");
  await control(page, "Menu label").locator("input").fill("Study design");
  await expectRefusedInTheCheckWords(page, messages);
});

test("a blank new entry does not say its changes are saved: nothing was", async ({ page }) => {
  await open(page, "added-pages/new");
  await expect(page.getByText("Writing in Added pages collection")).toBeVisible();
  await expect(page.getByText(/changes saved/i)).toHaveCount(0);
  await control(page, "Title").locator("input").fill("Careers");
  await expect(page.getByText(/unsaved changes/i)).toBeVisible();
});

test("a publish refused for a field far up the page names it at the top and takes the editor there", async ({
  page,
}) => {
  await open(page, "added-pages/entries/example");
  const slug = control(page, "Slug");
  await slug.locator("input").fill("admin");
  // The editor is at the end of a long page when they publish, the Slug far above the view.
  const last = page.locator("[aria-label$=' field']").filter({ visible: true }).last();
  await last.scrollIntoViewIfNeeded();
  await expect(slug.locator("input")).not.toBeInViewport();
  const before = snapshot();
  await askToPublish(page);
  const words = 'The slug "admin" cannot be used for an added page';
  await expect(page.getByText(new RegExp(`^Not saved: Slug: ${words}`))).toBeVisible();
  await expect(slug.locator("input")).toBeFocused();
  await expect(slug.locator("input")).toBeInViewport();
  await expect(slug.getByText(new RegExp(`^${words}`))).toBeInViewport();
  expect(snapshot()).toEqual(before);
});

test("a list entry's × has a name", async ({ page }) => {
  await open(page, "added-pages/entries/example");
  await expect(page.getByRole("button", { name: "Remove this entry" }).first()).toBeVisible();
});
