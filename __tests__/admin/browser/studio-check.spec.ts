/**
 * The studio runs the content check's rules on an entry before saving it, in the check's own words, and
 * sends no save when they refuse it: in the real studio against decap-server, on a copy of data/, the
 * issue's three cases. A page whose text has a javascript: link and a <script> (put there outside the
 * studio, as the preview drops both quietly), a menu link typed with a slip (/career), and a service's
 * banner whose path differs from the picture's name only in capitals. Each refusal holds every message
 * the check (checkFileText, run here on the same text) gives for that file, word for word, in the
 * studio's notice at the top without Decap's "Failed to persist entry: " and with no error of the page;
 * the copy is unchanged byte for byte. A refused publish is seen however Publish now was pressed (Enter
 * on it, a click in the middle of its row, on its icon): the notice in view, the cursor in the field.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { stringify } from "yaml";
import { checkFileText } from "../../../src/node/content/validate";
import {
  askToPublish,
  control,
  entryBar,
  notice,
  open as openIn,
  studioForTests,
  test,
} from "./support/studio-session";

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

/**
 * Publishes; the studio's notice holds each of the check's messages, after "Not saved: ", and nothing
 * of Decap's; no save was sent, nothing written, and the page reported no error.
 */
async function expectRefusedInTheCheckWords(page: Page, messages: string[]): Promise<void> {
  expect(messages.length).toBeGreaterThan(0);
  const saves: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && /persistEntry/.test(request.postData() ?? "")) saves.push(request.url());
  });
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(`${error.name}: ${error.message}`));
  const before = snapshot();
  await askToPublish(page);
  const refusal = notice(page);
  await expect(refusal).toBeVisible();
  await expect(refusal).toBeInViewport();
  await expect(refusal.locator("p").first()).toHaveText(/^Not saved: /);
  for (const message of messages) await expect(refusal).toContainText(message);
  await page.waitForTimeout(1000);
  await expect(page.getByText("Entry saved")).toHaveCount(0);
  await expect(page.getByText(/Failed to persist|the content check would refuse it/)).toHaveCount(0);
  expect(saves).toEqual([]);
  expect(snapshot()).toEqual(before);
  expect(pageErrors).toEqual([]);
}

/** The field the cursor is in: its label, and whether the cursor's place is in view. */
const focusedField = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    const field = active?.closest("[aria-label$=' field']");
    const box = active?.getBoundingClientRect();
    return {
      label: field?.querySelector("label")?.textContent?.replace(/ \(optional\)$/, "") ?? null,
      inView: Boolean(box && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight),
    };
  });

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
  // The cursor is in the refused text: the section's Body, unfolded and in view.
  await expect.poll(() => focusedField(page)).toEqual({ label: "Body", inView: true });
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

test("a publish refused for a field far up the page names it at the top and takes the editor there, however Publish now is pressed", async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(`${error.name}: ${error.message}`));
  await open(page, "added-pages/entries/example");
  const slug = control(page, "Slug");
  await slug.locator("input").fill("admin");
  const words = 'The slug "admin" cannot be used for an added page';
  const publishNow = page.getByRole("menuitem", { name: "Publish now" });
  const ways: Array<[string, () => Promise<void>]> = [
    [
      "Enter on Publish, then on Publish now",
      async () => {
        await page.getByRole("button", { name: "Publish" }).first().focus();
        await page.keyboard.press("Enter");
        await expect(publishNow).toBeFocused();
        await page.keyboard.press("Enter");
      },
    ],
    [
      "a click in the middle of the row",
      async () => {
        await page.getByRole("button", { name: "Publish" }).first().click();
        await publishNow.click();
      },
    ],
    [
      "a click on its icon",
      async () => {
        await page.getByRole("button", { name: "Publish" }).first().click();
        await publishNow.locator("svg").click();
      },
    ],
  ];
  const before = snapshot();
  for (const [way, press] of ways) {
    await test.step(way, async () => {
      // The editor is at the end of a long page when they publish, the Slug far above the view.
      const last = page.locator("[aria-label$=' field']").filter({ visible: true }).last();
      await last.scrollIntoViewIfNeeded();
      await expect(slug.locator("input")).not.toBeInViewport();
      await page.locator("body").evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await press();
      const refusal = notice(page);
      await expect(refusal).toHaveText(new RegExp(`^Not saved: Slug: ${words}`));
      await expect(refusal).toBeInViewport();
      await expect(slug.locator("input")).toBeFocused();
      await expect(slug.locator("input")).toBeInViewport();
      await expect(slug.getByText(new RegExp(`^${words}`))).toBeInViewport();
    });
  }
  expect(snapshot()).toEqual(before);
  expect(pageErrors).toEqual([]);
});

test("a list entry's × has a name", async ({ page }) => {
  await open(page, "added-pages/entries/example");
  await expect(page.getByRole("button", { name: "Remove this entry" }).first()).toBeVisible();
});
