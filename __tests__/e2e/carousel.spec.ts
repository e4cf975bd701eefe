/**
 * The home and contact carousels in real time: the active slide changes every 2500 ms and wraps
 * after the fourth, only one slide shows at a time, the pause button stops the rotation (and play
 * resumes it), and a visitor who prefers reduced motion gets no auto-rotation. On a slow network,
 * through hydration and a full turn, each slide's image is fetched once, in one size, and never
 * cancelled.
 *
 * A MutationObserver in the page logs each slide change with performance.now(), so intervals are
 * measured where they happen, not through the test's round trips.
 */
import type { Locator, Page, Request } from "@playwright/test";
import { contact, home, site } from "./support/content";
import { at, env, expect, open, test } from "./support/fixtures";
import { leave } from "./support/page-checks";

const INTERVAL = 2500;
/** How late the slow network's images arrive: longer than a slide shows. */
const SLOW_IMAGE = INTERVAL + 500;
/**
 * The rotation, pause and reduced motion are timers and state, the same at every width: each carousel
 * has them checked at one width, the two carousels at opposite ones (CI time; 50 s of test time). The
 * slow network's test depends on the width (each width picks its own image files): both.
 */
const carousels = [
  { route: "/home", label: home.carouselLabel, width: 375, otherWidth: 1280 },
  { route: "/contact", label: contact.region.carouselLabel, width: 1280, otherWidth: 375 },
] as const;

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

for (const { route, label, width, otherWidth } of carousels) {
  test.describe(`${route} carousel`, () => {
    test(
      "advances every 2500 ms, wraps after the fourth slide and shows one slide at a time",
      at(width),
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

    test("the pause button stops the rotation and play resumes it", at(otherWidth), async ({ page }) => {
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

    test("does not rotate for a visitor who prefers reduced motion", at(width), async ({ page }) => {
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

    test(
      "fetches each slide's image once, in one size, and cancels none on a slow network",
      at(375, 1280),
      async ({ page, problems }) => {
        // Every image of the site arrives SLOW_IMAGE ms late: the first slide's is still on its way
        // while the page hydrates, and each later slide is hidden again before its image has come.
        // A slide or picture that React re-renders differently, a srcset or sizes that changes, or a
        // hidden slide's image dropped would show here as a cancelled request or a second download.
        const origin = new URL(env("E2E_BASE_URL")).origin;
        await page.route(
          (url) => url.origin === origin,
          async (route) => {
            if (route.request().resourceType() === "image") await new Promise((r) => setTimeout(r, SLOW_IMAGE));
            // A request the page has cancelled meanwhile cannot go on: requestfailed has recorded it.
            await route.continue().catch(() => undefined);
          },
        );
        const images: Request[] = [];
        const outcome = new Map<Request, string>();
        page.on("request", (request) => {
          if (request.resourceType() === "image" && new URL(request.url()).origin === origin) images.push(request);
        });
        page.on("requestfinished", (request) => outcome.set(request, "finished"));
        page.on("requestfailed", (request) => outcome.set(request, request.failure()?.errorText ?? "failed"));

        await open(page, route);
        const carousel = carouselOf(page, label);
        // The contact carousel is below the fold, where its lazy slides would not load.
        await carousel.scrollIntoViewIfNeeded();
        await leave(page);
        await watch(carousel);
        // Four changes: every slide has been shown, and the one shown first is back.
        await expect
          .poll(async () => (await changes(page)).length, { timeout: 6 * INTERVAL, intervals: [250] })
          .toBeGreaterThanOrEqual(4);
        await expect
          .poll(() => images.filter((request) => !outcome.has(request)).map((request) => request.url()), {
            message: "every image request has ended",
            timeout: SLOW_IMAGE + 10_000,
          })
          .toEqual([]);

        const path = (request: Request) => new URL(request.url()).pathname;
        expect(
          images.filter((request) => outcome.get(request) !== "finished").map((r) => `${path(r)}: ${outcome.get(r)}`),
          "image requests cancelled or failed",
        ).toEqual([]);
        const paths = images.map(path);
        expect(
          paths.filter((p, i) => paths.indexOf(p) !== i),
          "images requested twice",
        ).toEqual([]);
        // A processed image is /static/<its hash>/<size and format>/<name>.<ext>: a second file of the
        // same picture (another width from its srcset, another format) is a download thrown away.
        const pictureOf = (p: string) => p.replace(/^(\/static\/[^/]+)\/[^/]+\/([^/]+)\.\w+$/, "$1/$2");
        const files = new Map<string, string[]>();
        for (const p of paths) files.set(pictureOf(p), [...(files.get(pictureOf(p)) ?? []), p]);
        expect(
          [...files.values()].filter((list) => list.length > 1).map((list) => list.join(" ")),
          "pictures fetched in more than one file",
        ).toEqual([]);
        const slidesLoaded = await slidesOf(carousel).evaluateAll((slides) =>
          slides.map((slide) => {
            const img = slide.querySelector("img");
            return Boolean(img?.complete && img.naturalWidth > 0);
          }),
        );
        expect(slidesLoaded, "every slide's image has arrived, hidden or not").toEqual([true, true, true, true]);
        problems.expectNone();
      },
    );
  });
}
