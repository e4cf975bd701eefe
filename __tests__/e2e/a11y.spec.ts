/**
 * axe-core (wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa) on every route at 375 and 1280 px, and on
 * the open Services dropdown and the open mobile menu: zero violations. (The contact form showing
 * each of its messages is checked in contact-form.spec.ts.) The reporter prints the counts.
 */
import { site, routes } from "./support/content";
import { at, axe, expect, open, test } from "./support/fixtures";

for (const route of [...routes, "/no-such-page"]) {
  const target = route === "/no-such-page" ? "404 page" : route;
  test(`axe: ${target}`, at(375, 1280), async ({ page }, testInfo) => {
    await open(page, route);
    expect(await axe(page, testInfo, target), "axe violations").toEqual([]);
  });
}

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
