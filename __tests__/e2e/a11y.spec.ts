/**
 * axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa) at 375 and 1280 px on the 404 page, the
 * open Services dropdown (on hover and by its button) and the open mobile menu: zero violations. Every route of the
 * route table
 * is checked by its own test in routes.spec.ts (one load of the page for both); the contact form
 * showing each of its messages in contact-form.spec.ts. The reporter prints the counts. The check
 * looks in the page's own document only (support/fixtures.ts): a frame other than the map's fails it.
 */
import { dropdown, nav, servicesLink, servicesToggle } from "./support/shell";
import { at, axe, expect, open, sharedTabTest as test } from "./support/fixtures";

test("axe: 404 page", at(375, 1280), async ({ page }, testInfo) => {
  await open(page, "/no-such-page");
  expect(await axe(page, testInfo, "404 page"), "axe violations").toEqual([]);
});

test("axe: the open Services dropdown", at(1280), async ({ page }, testInfo) => {
  await open(page, "/home");
  // The script-free dropdown: CSS opens it while the pointer is on the Services item.
  await servicesLink(page).hover();
  await expect(dropdown(page).getByRole("link").first()).toBeVisible();
  expect(await axe(page, testInfo, "open Services dropdown"), "axe violations").toEqual([]);
});

test("axe: the Services dropdown opened by its button", at(1280), async ({ page }, testInfo) => {
  await open(page, "/home");
  // Opened as a popover, in the top layer, with the pointer away from the item.
  await servicesToggle(page).click();
  await page.mouse.move(5, 700);
  await expect(dropdown(page).getByRole("link").first()).toBeVisible();
  expect(await axe(page, testInfo, "Services dropdown opened by its button"), "axe violations").toEqual([]);
});

test("axe: the open mobile menu", at(375), async ({ page }, testInfo) => {
  await open(page, "/home");
  // The hamburger is the <summary> of the script-free menu (a <details>).
  await nav(page).locator("details > summary").click();
  await expect(nav(page).getByRole("link", { name: "Contact Us" })).toBeVisible();
  expect(await axe(page, testInfo, "open mobile menu"), "axe violations").toEqual([]);
});

// axe looks in the page's own document only (support/fixtures.ts): a frame other than the map's fails the check.
test(
  "axe: a frame of the site's own, which the check would not look inside, fails it",
  at(1280),
  async ({ page }, testInfo) => {
    await open(page, "/home");
    await page.evaluate(() => {
      const frame = document.createElement("iframe");
      frame.title = "A part of the site";
      frame.srcdoc = "<!doctype html><html lang='en'><title>Part</title><p>The site's own</p></html>";
      document.body.append(frame);
    });
    await expect.poll(() => page.frames().length).toBe(2);
    await expect(axe(page, testInfo, "a frame of the site's own")).rejects.toThrow(/frames axe does not look inside/);
  },
);
