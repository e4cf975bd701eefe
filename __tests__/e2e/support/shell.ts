/** The shell's parts as a visitor finds them, whatever form (script-free or scripted) they have. */
import { expect, type Page } from "@playwright/test";
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
export const servicesToggle = (page: Page) =>
  servicesItem(page).getByRole("button", { name: site.labels.servicesToggle, exact: true });

/**
 * The expanded state Chromium gives a screen reader for the button named `name` (its accessibility
 * tree, through the DevTools protocol). Playwright's own role engine computes aria-expanded from the
 * attribute only, while a popover's invoker has its state from the browser, with no attribute.
 */
export async function expandedState(page: Page, name: string): Promise<boolean | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodes } = await cdp.send("Accessibility.queryAXTree", {
      nodeId: root.nodeId,
      accessibleName: name,
      role: "button",
    });
    expect(nodes, `one button named "${name}" in the accessibility tree`).toHaveLength(1);
    const expanded = nodes[0]!.properties?.find((p) => p.name === "expanded");
    return expanded?.value.value as boolean | undefined;
  } finally {
    await cdp.detach();
  }
}
