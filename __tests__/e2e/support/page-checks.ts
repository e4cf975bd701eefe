/** What every page shows whatever its route: the shell, and nothing sticking out sideways. */
import type { Page } from "@playwright/test";
import { site } from "./content";
import { expect } from "./fixtures";

export async function expectShell(page: Page) {
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: site.labels.homeLink })).toHaveAttribute("href", "/home");
  await expect(header.getByText(site.tagline)).toBeVisible();
  await expect(page.getByRole("navigation", { name: site.labels.mainNav })).toBeAttached();
  await expect(page.getByRole("contentinfo")).toBeVisible();
}

/** Elements sticking out of the viewport on the right, if the page scrolls sideways. */
export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= limit) return [];
    return [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 10)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`);
  });
}

/** Takes the pointer and keyboard focus off the page's controls: either would hold a carousel still. */
export async function leave(page: Page) {
  await page.mouse.move(1, 1);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** The widths at which every route is checked with axe-core (routes.spec.ts, a11y.spec.ts). */
export const axeWidths = [375, 1280];

/** The widths at which a route's full-page screenshot is saved. */
export const shotWidths = [375, 1280];
