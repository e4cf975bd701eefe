/**
 * Pages from their first paint, before their islands arrive (every script held back, as on a slow
 * phone), and the hand-over when they do: nothing on the page moves, and a Why Cyrus card shown by
 * keyboard focus before the island stays shown, and is then announced so. (The shell, the menu, the
 * dropdown and the floating buttons, has no script on any page: no-javascript-shell.spec.ts and
 * shell.spec.ts.)
 */
import type { Page } from "@playwright/test";
import { whyCyrus } from "./support/content";
import {
  at,
  expect,
  holdScripts,
  isHydrated,
  openWithoutScripts,
  sharedTabTest as test,
  waitForHydration,
} from "./support/fixtures";

/** Opens a route with every script held back, once its HTML is parsed (the islands are requested). */
async function openBeforeScripts(page: Page, route: string) {
  const scripts = await holdScripts(page);
  await openWithoutScripts(page, route);
  await expect.poll(scripts.held, { message: "the page asked for its islands" }).toBeGreaterThan(0);
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

test(
  "the islands move nothing on the page when they arrive (no layout shift)",
  at(375, 1280),
  async ({ page, problems }) => {
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
  },
);

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
