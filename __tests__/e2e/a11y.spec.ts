/**
 * axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa) at 375 and 1280 px on the 404 page, the
 * open Services dropdown and the open mobile menu: zero violations. Every route of the route table
 * is checked by its own test in routes.spec.ts (one load of the page for both); the contact form
 * showing each of its messages in contact-form.spec.ts. The reporter prints the counts.
 */
import { site } from "./support/content";
import { at, axe, expect, open, test } from "./support/fixtures";

test("axe: 404 page", at(375, 1280), async ({ page }, testInfo) => {
  await open(page, "/no-such-page");
  expect(await axe(page, testInfo, "404 page"), "axe violations").toEqual([]);
});

test("axe: the open Services dropdown", at(1280), async ({ page }, testInfo) => {
  await open(page, "/home");
  const nav = page.getByRole("navigation", { name: site.labels.mainNav });
  const button = nav.getByRole("button", { name: site.labels.servicesToggle });
  await button.click();
  await expect(button).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator(`[id="${await button.getAttribute("aria-controls")}"]`)).toBeVisible();
  expect(await axe(page, testInfo, "open Services dropdown"), "axe violations").toEqual([]);
});

test("axe: the open mobile menu", at(375), async ({ page }, testInfo) => {
  await open(page, "/home");
  const nav = page.getByRole("navigation", { name: site.labels.mainNav });
  await nav.getByRole("button", { name: site.labels.menuOpen }).click();
  await expect(nav.getByRole("link", { name: "Contact Us" })).toBeVisible();
  expect(await axe(page, testInfo, "open mobile menu"), "axe violations").toEqual([]);
});
