/** The shell's parts as a visitor finds them, whatever form (script-free or scripted) they have. */
import type { Page } from "@playwright/test";
import { site } from "./content";

export const nav = (page: Page) => page.getByRole("navigation", { name: site.labels.mainNav });
/** The list of top-level links (the mobile menu at 768 px and below). */
export const menu = (page: Page) => nav(page).locator(":scope > ul");
export const servicesLink = (page: Page) => nav(page).getByRole("link", { name: "Services", exact: true });
export const servicesItem = (page: Page) =>
  menu(page)
    .locator(":scope > li")
    .filter({ has: page.locator(':scope > a[href="/services"]') });
export const dropdown = (page: Page) => servicesItem(page).locator(":scope > ul");
export const scrollTo = (page: Page, top: number) =>
  page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), top);
