/**
 * The studio by keyboard and screen reader. axe-core finds no serious or
 * critical violation on a collection's list, an entry with list and Markdown widgets (an added page,
 * its Text section unfolded) and the media library, at 1280 and 375 px, but the few of Decap's own
 * named in ALLOWED (rule and element, each with why it stays: docs/editing-studio.md). A list entry's
 * × and fold button and the Rich Text / Markdown switch have names; Tab into a text field selects its
 * text, so typing replaces it. And a refusal in the media library shows above its dimmed overlay,
 * announced, and goes with the library. An editor with a keyboard alone creates a page, has its Publish
 * refused, is taken to the refused field, fixes it and publishes, axe finding nothing on each screen on
 * the way. One studio for the file, one page load per test.
 */
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { LIBRARY_NOTICE_CLASS } from "../../../admin/src/library-notice";
import { axeTags } from "../../e2e/support/fixtures";
import { checksReady, control, notice, open, pressUntilFocused, studioForTests, test } from "./support/studio-session";

const session = studioForTests("studio-access");

/**
 * Decap's own violations that cannot be fixed from admin/: the rule, and a selector the element must
 * match (any other element breaking the rule fails the test). The reasons are in docs/editing-studio.md.
 */
const ALLOWED: ReadonlyArray<{ rule: string; selector: string }> = [
  // The Markdown toolbar's Headings menu: react-aria-menubutton's trigger (a span role=button) wraps
  // Decap's toolbar button, so a button holds a button.
  { rule: "nested-interactive", selector: "[class*=ToolbarDropdownWrapper] span[role=button][aria-haspopup=true]" },
];

const SERIOUS = ["serious", "critical"];

/** The violations axe finds on the page as it is (serious and critical ones unless told), less the allowed ones. */
async function violations(page: Page, screen: string, impacts: readonly string[] = SERIOUS): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(axeTags).analyze();
  const found: string[] = [];
  for (const violation of results.violations) {
    if (!impacts.includes(violation.impact ?? "")) continue;
    for (const node of violation.nodes) {
      const target = node.target.map(String);
      const allowed = ALLOWED.filter((a) => a.rule === violation.id);
      const matches =
        allowed.length > 0 && target.length === 1
          ? await page
              .locator(target[0]!)
              .first()
              .evaluate(
                (element, selectors) => selectors.some((s) => element.matches(s)),
                allowed.map((a) => a.selector),
              )
          : false;
      if (!matches)
        found.push(
          `${screen}: ${violation.id} (${violation.impact}) at ${target.join(" ")}: ${node.html.slice(0, 120)}`,
        );
    }
  }
  return found;
}

/** Goes to a screen of the studio already loaded, by its address, as its links do (no page load). */
async function go(page: Page, hash: string): Promise<void> {
  await page.evaluate((to) => (window.location.hash = to), hash);
}

/** Opens the example page (an added page) and unfolds its first section, a Text: a Markdown editor. */
async function openExample(page: Page): Promise<void> {
  await go(page, "#/collections/added-pages/entries/example");
  await checksReady(page);
  await control(page, "Sections").getByRole("button", { name: "This entry's fields" }).first().click();
  await expect(page.getByRole("switch", { name: "Markdown" })).toBeVisible();
}

/** Opens the media library from the page's Banner field. */
async function openLibrary(page: Page): Promise<void> {
  await control(page, "Banner")
    .getByRole("button", { name: /^Choose (an|different) image$/ })
    .click();
  await expect(page.getByRole("button", { name: "Delete selected" })).toBeVisible();
  await expect(page.getByRole("dialog").getByText("example-banner.jpg", { exact: true })).toBeVisible();
}

for (const width of [1280, 375])
  test(`axe finds no serious or critical violation at ${width} px: a collection, an entry with lists and Markdown, the media library`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await open(page, session.studio, "services");
    await expect(page.locator("a[href*='#/collections/services/entries/']").first()).toBeVisible();
    const found = await violations(page, "the services' list");

    await openExample(page);
    found.push(...(await violations(page, "the example page")));

    await openLibrary(page);
    found.push(...(await violations(page, "the media library")));
    expect(found).toEqual([]);
  });

test("names for the × and the Markdown switch, Tab selects a field's text, and the media library's refusal is seen and goes with it", async ({
  page,
}) => {
  await open(page, session.studio, "pages");
  await openExample(page);

  // Each section's × and fold button are named for a screen reader.
  const sections = control(page, "Sections");
  const count = await sections.locator("[class*=ListItemTopBar]").filter({ visible: true }).count();
  expect(count).toBeGreaterThan(1);
  await expect(sections.getByRole("button", { name: "Remove this entry" }).filter({ visible: true })).toHaveCount(
    count,
  );
  await expect(sections.getByRole("button", { name: "This entry's fields" }).first()).toHaveAttribute(
    "aria-expanded",
    "true",
  );

  // The switch, by the keyboard: off in Rich Text, on in Markdown, where the text is a plain text box.
  const markdown = page.getByRole("switch", { name: "Markdown" });
  const body = page.locator("[aria-label='markdown field']").filter({ visible: true }).first();
  await expect(markdown).toHaveAttribute("aria-checked", "false");
  await expect(body).not.toContainText("[links](/contact)");
  await markdown.focus();
  await page.keyboard.press("Space");
  await expect(markdown).toHaveAttribute("aria-checked", "true");
  // The section's Body as written in its file: Markdown's own marks show.
  await expect(body).toContainText("[links](/contact)");
  // Decap draws the other mode's editor anew, its switch too, which the focus does not follow.
  await markdown.focus();
  await page.keyboard.press("Space");
  await expect(markdown).toHaveAttribute("aria-checked", "false");

  // Tab into a text field typed in before (the "/career"): its text is selected, typing replaces it.
  const slug = control(page, "Slug").locator("input");
  const title = control(page, "Title").locator("input");
  await title.fill("/career");
  await slug.focus();
  await page.keyboard.press("Tab");
  await expect(title).toBeFocused();
  await page.keyboard.type("/careers");
  await expect(title).toHaveValue("/careers");
  // Back with Shift+Tab, and again: the same.
  await page.keyboard.press("Shift+Tab");
  await expect(slug).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.type("An example page");
  await expect(title).toHaveValue("An example page");

  // Delete on the picture this page shows: refused, and the refusal is above the library's overlay.
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.accept();
  });
  await openLibrary(page);
  await page.getByRole("dialog").getByText("example-banner.jpg", { exact: true }).click();
  await page.getByRole("button", { name: "Delete selected" }).click();
  const notice = page.getByRole("alert").filter({ hasText: /^example-banner\.jpg is not deleted: .* shows it\./ });
  await expect(notice).toBeVisible();
  // Refused before Decap's "Are you sure …?".
  expect(dialogs).toEqual([]);
  const topmost = await notice.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return { inside: Boolean(hit && element.contains(hit)), hidden: Boolean(element.closest("[aria-hidden=true]")) };
  });
  expect(topmost).toEqual({ inside: true, hidden: false });
  expect(session.readText("pages/example.yaml")).toContain("./images/example-banner.jpg");

  // Closed with the library, and nothing left over the entry or the next screen.
  await page.getByRole("dialog").getByRole("button", { name: "Close", exact: true }).click();
  await expect(page.getByRole("button", { name: "Delete selected" })).toHaveCount(0);
  await expect(page.locator(`.${LIBRARY_NOTICE_CLASS}`)).toHaveCount(0);
  await expect(page.getByText(/is not deleted/)).toHaveCount(0);
  await go(page, "#/collections/services");
  await expect(page.locator("a[href*='#/collections/services/entries/']").first()).toBeVisible();
  await expect(page.getByText(/is not deleted/)).toHaveCount(0);
});

test("by keyboard alone: a new page, its Publish refused, the field it was taken to fixed, then published; axe finds nothing on each screen", async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(`${error.name}: ${error.message}`));
  // On this journey, axe finds nothing at all: no violation of any impact, minor ones too.
  const EVERY = ["minor", "moderate", ...SERIOUS];
  const found: string[] = [];
  await open(page, session.studio, "added-pages");
  found.push(...(await violations(page, "the added pages' list", EVERY)));

  // A new page, from the list's ＋ link.
  const create = page.getByRole("link", { name: /^Create entry of type / });
  await pressUntilFocused(page, create);
  await page.keyboard.press("Enter");
  await checksReady(page);
  // (Each text goes in as one input, as a keyboard's autocompletion does: Decap's field, redrawn
  // meanwhile on a loaded machine, once lost a key typed one by one.)
  const slug = control(page, "Slug").locator("input");
  await pressUntilFocused(page, slug);
  await page.keyboard.insertText("admin");
  await page.keyboard.press("Tab");
  await page.keyboard.insertText("Working with us");
  await page.keyboard.press("Tab");
  await page.keyboard.insertText("How to work with Cyrus.");
  // A Text section: the list's Add menu, its first kind.
  await pressUntilFocused(page, control(page, "Sections").getByRole("button", { name: /^Add / }));
  await page.keyboard.press("Enter");
  const text = page.getByRole("menuitem", { name: "Text", exact: true });
  await pressUntilFocused(page, text, "ArrowDown", 10);
  await page.keyboard.press("Enter");
  await pressUntilFocused(page, page.getByRole("textbox", { name: "Body" }));
  await page.keyboard.insertText("We work with you.");
  found.push(...(await violations(page, "the new page, filled in", EVERY)));

  // Back up to Publish, Enter, then Enter on Publish now.
  const publish = page.getByRole("button", { name: "Publish" }).first();
  const publishNow = page.getByRole("menuitem", { name: "Publish now" });
  const publishByKeyboard = async () => {
    await pressUntilFocused(page, publish, "Shift+Tab");
    await page.keyboard.press("Enter");
    await expect(publishNow).toBeFocused();
    await page.keyboard.press("Enter");
  };
  await publishByKeyboard();
  await expect(notice(page)).toHaveText(/^Not saved: Slug: The slug "admin" cannot be used for an added page/);
  await expect(notice(page)).toBeInViewport();
  await expect(slug).toBeFocused();
  await expect(slug).toBeInViewport();
  found.push(...(await violations(page, "the refused publish", EVERY)));

  // The field it was taken to, rewritten, and published once the studio has read the other pages to
  // check the new slug against (refusing-widgets.tsx; before that it says "publish again in a moment").
  const read = page.waitForRequest((r) => (r.postData() ?? "").includes('"entriesByFolder"'));
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText("working-with-us");
  await (await read).response();
  await checksReady(page);
  await publishByKeyboard();
  await expect(page.getByText("Entry saved")).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
  await expect.poll(() => fs.existsSync(path.join(session.dir, "data/pages/working-with-us.yaml"))).toBe(true);
  found.push(...(await violations(page, "the published page", EVERY)));
  expect(found).toEqual([]);
  expect(pageErrors).toEqual([]);
});
