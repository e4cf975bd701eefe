/**
 * The home and contact carousels in real time: the active slide changes every 2500 ms and wraps
 * after the fourth, only one slide shows at a time, the pause button stops the rotation (and play
 * resumes it), and a visitor who prefers reduced motion gets no auto-rotation.
 *
 * A MutationObserver in the page logs each slide change with performance.now(), so intervals are
 * measured where they happen, not through the test's round trips.
 */
import type { Locator, Page } from "@playwright/test";
import { contact, home, site } from "./support/content";
import { at, expect, open, test } from "./support/fixtures";

const INTERVAL = 2500;
const carousels = [
  { route: "/home", label: home.carouselLabel },
  { route: "/contact", label: contact.region.carouselLabel },
];

interface Change {
  t: number;
  visible: number[];
}

const carouselOf = (page: Page, label: string) =>
  page.locator(`section[aria-roledescription="carousel"][aria-label="${label}"]`);
const slidesOf = (carousel: Locator) => carousel.locator('[aria-roledescription="slide"]');

/** Starts logging slide changes; returns the index shown now. */
async function watch(carousel: Locator): Promise<number> {
  return carousel.evaluate((root) => {
    const slides = [...root.querySelectorAll<HTMLElement>('[aria-roledescription="slide"]')];
    const visible = () => slides.flatMap((s, i) => (s.hidden ? [] : [i]));
    const log: Change[] = [];
    (window as unknown as { __slideLog: Change[] }).__slideLog = log;
    let last = visible().join();
    new MutationObserver(() => {
      const now = visible();
      if (now.join() === last) return;
      last = now.join();
      log.push({ t: performance.now(), visible: now });
    }).observe(root, { attributes: true, attributeFilter: ["hidden"], subtree: true });
    return visible()[0]!;
  });
}

const changes = (page: Page) => page.evaluate(() => (window as unknown as { __slideLog: Change[] }).__slideLog);

/** Takes the pointer and keyboard focus out of the carousel: either would pause it. */
async function leave(page: Page) {
  await page.mouse.move(1, 1);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

for (const { route, label } of carousels) {
  test.describe(`${route} carousel`, () => {
    test(
      "advances every 2500 ms, wraps after the fourth slide and shows one slide at a time",
      at(375, 1280),
      async ({ page }) => {
        await open(page, route);
        const carousel = carouselOf(page, label);
        const slides = slidesOf(carousel);
        await expect(slides).toHaveCount(4);
        await expect(slides.filter({ visible: true })).toHaveCount(1);
        await expect(carousel.getByRole("button", { name: site.labels.carouselPause })).toBeVisible();

        const start = await watch(carousel);
        // Five changes: every slide shown once more and at least one wrap from the fourth to the first.
        await expect
          .poll(async () => (await changes(page)).length, { timeout: 6 * INTERVAL, intervals: [250] })
          .toBeGreaterThanOrEqual(5);
        const log = (await changes(page)).slice(0, 5);

        let previous = start;
        for (const change of log) {
          expect(change.visible, "exactly one slide is displayed").toHaveLength(1);
          expect(change.visible[0], "the next slide, wrapping after the fourth").toBe((previous + 1) % 4);
          previous = change.visible[0]!;
        }
        const shown = log.map((c) => c.visible[0]);
        expect(shown, "the fourth slide is followed by the first").toEqual(expect.arrayContaining([0, 3]));
        const intervals = log.slice(1).map((c, i) => Math.round(c.t - log[i]!.t));
        for (const ms of intervals) {
          expect(ms, `interval ${intervals.join(", ")} ms`).toBeGreaterThanOrEqual(INTERVAL - 100);
          expect(ms, `interval ${intervals.join(", ")} ms`).toBeLessThanOrEqual(INTERVAL + 900);
        }
        await expect(slides.filter({ visible: true })).toHaveCount(1);
      },
    );

    test("the pause button stops the rotation and play resumes it", at(375, 1280), async ({ page }) => {
      await open(page, route);
      const carousel = carouselOf(page, label);
      await carousel.getByRole("button", { name: site.labels.carouselPause }).click();
      const play = carousel.getByRole("button", { name: site.labels.carouselPlay });
      await expect(play).toBeVisible();
      await leave(page);
      await watch(carousel);
      await page.waitForTimeout(INTERVAL + 1000); // a change would be due by now
      expect(await changes(page), "no slide change while paused").toEqual([]);
      await expect(slidesOf(carousel).filter({ visible: true })).toHaveCount(1);

      await play.click();
      await expect(carousel.getByRole("button", { name: site.labels.carouselPause })).toBeVisible();
      await leave(page);
      await expect
        .poll(async () => (await changes(page)).length, { timeout: INTERVAL + 2000 })
        .toBeGreaterThanOrEqual(1);
    });

    test("does not rotate for a visitor who prefers reduced motion", at(375, 1280), async ({ page }) => {
      await page.emulateMedia({ reducedMotion: "reduce" });
      await open(page, route);
      const carousel = carouselOf(page, label);
      const play = carousel.getByRole("button", { name: site.labels.carouselPlay });
      await expect(play, "the carousel starts paused").toBeVisible();
      await watch(carousel);
      await page.waitForTimeout(INTERVAL + 1000);
      expect(await changes(page), "no automatic slide change").toEqual([]);
      await expect(slidesOf(carousel).nth(0)).toBeVisible();
      // The visitor may still start it.
      await play.click();
      await leave(page);
      await expect
        .poll(async () => (await changes(page)).length, { timeout: INTERVAL + 2000 })
        .toBeGreaterThanOrEqual(1);
    });
  });
}
