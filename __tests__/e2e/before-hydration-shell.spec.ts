/**
 * The shell from its first paint, before its scripts arrive (every script held back, as on a slow
 * phone), and the hand-over when they do: the menu opens (375), the Services dropdown opens on hover
 * and focus (1280) and scroll-to-top shows past 300 px while no script has run; then the scripts are
 * let through and hydration keeps what the visitor opened, without a console error, without a frame
 * in which it closes and without moving the controls, and the scripted behaviour works as before
 * (Escape, focus return, pinning by click, scrolling to the top without "#top" in the address). A
 * Why Cyrus card shown by keyboard focus before the scripts stays shown, and is then announced so.
 */
import type { Locator, Page } from "@playwright/test";
import { site, navLabels, whyCyrus } from "./support/content";
import { dropdown, menu, nav, scrollTo, servicesItem, servicesLink } from "./support/shell";
import { at, expect, holdScripts, isHydrated, openWithoutScripts, test, waitForHydration } from "./support/fixtures";

/** Opens a route with every script held back, once the page is painted (its loader asks for them). */
async function openBeforeScripts(page: Page, route: string) {
  const scripts = await holdScripts(page);
  await openWithoutScripts(page, route);
  await expect
    .poll(scripts.held, { message: "the page asked for its scripts after its first paint" })
    .toBeGreaterThan(0);
  expect(await isHydrated(page), "not hydrated yet").toBe(false);
  return scripts;
}

/**
 * Counts, from now on, the animation frames in which the element matching `selector` is not shown:
 * a state the visitor opened must not close, even for one frame, when the scripts take over.
 */
async function watchShown(page: Page, selector: string) {
  const key = `__hiddenFrames:${selector}`;
  await page.evaluate(
    ([sel, k]) => {
      const w = window as unknown as Record<string, number>;
      w[k] = 0;
      const tick = () => {
        const el = document.querySelector(sel);
        if (!el?.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions)) w[k] = (w[k] ?? 0) + 1;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    },
    [selector, key] as const,
  );
  return () => page.evaluate((k) => (window as unknown as Record<string, number>)[k], key);
}

async function hydrate(page: Page, scripts: { release: () => Promise<void> }) {
  await scripts.release();
  await waitForHydration(page);
}

const box = async (locator: Locator) => {
  const b = await locator.boundingBox();
  if (!b) throw new Error("not displayed");
  return b;
};

test.describe("mobile menu before the scripts", () => {
  test(
    "a menu opened before the scripts arrive stays open as the scripted button, which Escape closes",
    at(375),
    async ({ page, problems }) => {
      const scripts = await openBeforeScripts(page, "/home");
      const toggle = nav(page).locator("details > summary");
      await expect(menu(page)).toBeHidden();
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect(menu(page)).toBeVisible();
      await expect(menu(page).locator(":scope > li > a")).toHaveText(navLabels);
      const before = await box(toggle);

      const hiddenFrames = await watchShown(page, "nav > ul");
      await hydrate(page, scripts);
      await expect(nav(page).locator("details")).toHaveCount(0);
      const hamburger = nav(page).getByRole("button", { name: site.labels.menuClose });
      await expect(hamburger).toHaveAttribute("aria-expanded", "true");
      await expect(hamburger, "focus moved from the toggle to the button").toBeFocused();
      await expect(menu(page)).toBeVisible();
      expect(await hiddenFrames(), "frames in which the open menu was hidden").toBe(0);
      expect(await box(hamburger), "the button took the toggle's place").toEqual(before);

      await page.keyboard.press("Escape");
      await expect(menu(page)).toBeHidden();
      const closed = nav(page).getByRole("button", { name: site.labels.menuOpen });
      await expect(closed).toHaveAttribute("aria-expanded", "false");
      await expect(closed).toBeFocused();

      // And as before: the button opens the menu, and choosing a link closes it.
      await closed.click();
      await expect(menu(page)).toBeVisible();
      await menu(page).getByRole("link", { name: "About Us" }).click();
      await expect(page).toHaveURL(/\/aboutus$/);
      await expect(menu(page)).toBeHidden();
      problems.expectNone();
    },
  );

  test("a menu left closed becomes the closed button in the same place", at(375), async ({ page, problems }) => {
    const scripts = await openBeforeScripts(page, "/home");
    const before = await box(nav(page).locator("details > summary"));
    await hydrate(page, scripts);
    const hamburger = nav(page).getByRole("button", { name: site.labels.menuOpen });
    await expect(hamburger).toHaveAttribute("aria-expanded", "false");
    await expect(menu(page)).toBeHidden();
    expect(await box(hamburger)).toEqual(before);
    problems.expectNone();
  });
});

test.describe("desktop dropdown before the scripts", () => {
  test(
    "the dropdown opens on hover and focus before the scripts; after hydration it stays open and its button works as before",
    at(1280),
    async ({ page, problems }) => {
      const scripts = await openBeforeScripts(page, "/home");
      const list = dropdown(page);
      await expect(servicesItem(page).getByRole("button")).toHaveCount(0);
      const placeholder = await box(servicesItem(page).locator(":scope > span[aria-hidden]"));
      await expect(list).toBeHidden();

      await servicesLink(page).hover();
      await expect(list).toBeVisible();
      await page.getByRole("main").hover({ position: { x: 5, y: 300 } });
      await expect(list).toBeHidden();

      await servicesLink(page).focus();
      await expect(list).toBeVisible();
      await page.keyboard.press("Tab");
      const first = list.getByRole("link").first();
      await expect(first, "Tab goes from the Services link into the list").toBeFocused();

      const hiddenFrames = await watchShown(page, `a[href="${await first.getAttribute("href")}"]`);
      await hydrate(page, scripts);
      const toggle = nav(page).getByRole("button", { name: site.labels.servicesToggle });
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await expect(list).toBeVisible();
      await expect(first).toBeFocused();
      expect(await hiddenFrames(), "frames in which the open dropdown was hidden").toBe(0);
      expect(await box(toggle), "the button took the placeholder's place").toEqual(placeholder);

      await page.keyboard.press("Escape");
      await expect(list).toBeHidden();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await expect(toggle).toBeFocused();

      // A click pins the list open: leaving the item does not close it; a second click does.
      await toggle.click();
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await page.getByRole("main").hover({ position: { x: 5, y: 300 } });
      await expect(list).toBeVisible();
      await toggle.click();
      await expect(list).toBeHidden();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      // Hover opens it softly, as before (entering the item from outside it).
      await page.getByRole("main").hover({ position: { x: 5, y: 300 } });
      await servicesLink(page).hover();
      await expect(list).toBeVisible();
      await page.getByRole("main").hover({ position: { x: 5, y: 300 } });
      await expect(list).toBeHidden();
      problems.expectNone();
    },
  );
});

test(
  "scroll-to-top shows past 300 px before the scripts and stays through hydration",
  at(375, 1280),
  async ({ page, problems }) => {
    const scripts = await openBeforeScripts(page, "/home");
    const toTop = page.getByRole("link", { name: site.labels.scrollTop, includeHidden: true });
    const chat = page.getByRole("link", { name: site.messaging.label });
    await expect(toTop).toBeHidden();
    await expect(chat).toBeVisible();
    await scrollTo(page, 301);
    await expect(toTop).toBeVisible();
    await scrollTo(page, 300);
    await expect(toTop).toBeHidden();
    await scrollTo(page, 800);
    await expect(toTop).toBeVisible();

    const hiddenFrames = await watchShown(page, `a[aria-label="${site.labels.scrollTop}"]`);
    await hydrate(page, scripts);
    await expect(toTop).toBeVisible();
    await expect(chat).toBeVisible();
    expect(await hiddenFrames(), "frames in which scroll-to-top was hidden").toBe(0);

    // The script's rules from now on: scrolled to 300 px or less, both hide; the click scrolls.
    await scrollTo(page, 300);
    await expect(toTop).toBeHidden();
    await expect(chat).toBeHidden();
    await scrollTo(page, 1500);
    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5_000 }).toBe(0);
    await expect(page, "no #top in the address").toHaveURL(/\/home$/);
    problems.expectNone();
  },
);

test("hydration moves nothing on the page (no layout shift)", at(375, 1280), async ({ page, problems }) => {
  const scripts = await openBeforeScripts(page, "/home");
  await page.evaluate(() => {
    const w = window as unknown as { __shifts: string[] };
    w.__shifts = [];
    const from = performance.now();
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; sources?: Array<{ node?: Node }> }
      >) {
        if (entry.startTime < from) continue;
        const nodes = (entry.sources ?? []).map((s) =>
          s.node instanceof Element ? s.node.outerHTML.slice(0, 80) : String(s.node),
        );
        w.__shifts.push(`${entry.value.toFixed(4)}: ${nodes.join(", ")}`);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await hydrate(page, scripts);
  // Two frames for the last shift, if any, to be reported.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => (window as unknown as { __shifts: string[] }).__shifts)).toEqual([]);
  problems.expectNone();
});

test.describe("Why Cyrus cards before the scripts", () => {
  test(
    "a card focused before the scripts arrive stays shown when they do, now announced as expanded",
    at(375, 1280),
    async ({ page, problems }) => {
      const scripts = await openBeforeScripts(page, "/whycyrus");
      const card = page.getByRole("main").getByRole("listitem").nth(1);
      const button = card.getByRole("button");
      const description = card.getByText(whyCyrus.cards[1]!.description);
      await page.getByRole("main").getByRole("heading", { level: 1 }).click();
      await page.mouse.move(1, 1);
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      await expect(button).toBeFocused();
      await expect(description).toBeVisible();
      await expect(button, "no state claimed while none can change").not.toHaveAttribute("aria-expanded");

      const hiddenFrames = await watchShown(page, `[id="${await description.getAttribute("id")}"]`);
      await hydrate(page, scripts);
      await expect(button).toBeFocused();
      await expect(button).toHaveAttribute("aria-expanded", "true");
      await expect(description).toBeVisible();
      expect(await hiddenFrames(), "frames in which the shown description was hidden").toBe(0);

      // And as with scripts from the start: leaving collapses it.
      await page.keyboard.press("Tab");
      await expect(button).toHaveAttribute("aria-expanded", "false");
      await expect(description).toBeHidden();
      problems.expectNone();
    },
  );
});
