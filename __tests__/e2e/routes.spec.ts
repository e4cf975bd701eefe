/**
 * Every route of the spec's route table, at every viewport: it answers at its exact path, shows the
 * shell, its main heading and content, logs no console error, makes no failed request (the blocked
 * map frame aside) and nothing overflows horizontally. At 375 and 1280 px each route is a test of its
 * own that also has no axe-core violation (the tags of a11y.spec.ts), saves a full-page screenshot
 * under screenshots/<width>/ and passes the keyboard walk (support/keyboard-walk.ts; its reduced
 * motion and map stand-in are set before the page loads, at those widths only). At 768 and 1024 px
 * one test visits every route in one tab, a step per route. The tests at 375 and 1280 px share their
 * worker's tab too (sharedTabTest): a new context and renderer per route cost as much CPU as the page.
 * What the server itself decides (`/` and an unknown path) is in server-routes.spec.ts.
 */
import type { Page, Response } from "@playwright/test";
import { contentOf, screenshotName, routes } from "./support/content";
import { at, axe, expect, open, saveScreenshot, sharedTabTest, test, width } from "./support/fixtures";
import { expectKeyboardWalk, prepareKeyboardWalk, walkWidths } from "./support/keyboard-walk";
import { axeWidths, expectShell, horizontalOverflow, shotWidths } from "./support/page-checks";

/** What the route shows at any width, as loaded by `response`. */
async function expectRoute(page: Page, route: string, response: Response) {
  expect(response.status()).toBe(200);
  expect(new URL(page.url()).pathname).toBe(route);
  await expectShell(page);

  const main = page.getByRole("main");
  const expected = contentOf(route);
  const h1 = main.getByRole("heading", { level: 1 });
  await expect(h1).toHaveText(expected.heading);
  // Home's h1 is for screen readers; its carousel is the visible top of the page.
  if (route !== "/home") await expect(h1).toBeVisible();
  for (const heading of expected.headings)
    await expect(main.getByRole("heading", { name: heading, exact: true })).toBeVisible();
  for (const text of expected.texts) await expect(main.getByText(text, { exact: true }).first()).toBeVisible();
  for (const alt of expected.images)
    await expect(main.getByRole("img", { name: alt, exact: true }).first()).toBeVisible();
  await expect(page).toHaveTitle(/ – Cyrus$/);

  expect(await horizontalOverflow(page), "nothing overflows horizontally").toEqual([]);
}

for (const route of routes) {
  sharedTabTest(
    `${route} answers at its exact path with its heading and content`,
    at(375, 1280),
    async ({ page, problems }, testInfo) => {
      const walk = walkWidths.includes(width(page));
      if (walk) await prepareKeyboardWalk(page);
      await expectRoute(page, route, await open(page, route, { networkIdle: true }));
      // axe-core on the page as loaded (a11y.spec.ts has the 404 page and the open menus): here, so
      // that each route is loaded once for both, at the widths of the axe checks.
      if (axeWidths.includes(width(page))) expect(await axe(page, testInfo, route), "axe violations").toEqual([]);
      if (shotWidths.includes(width(page))) await saveScreenshot(page, screenshotName(route));
      // Last: it scrolls, and moves the focus through the page.
      if (walk) await expectKeyboardWalk(page, route);
      problems.expectNone();
    },
  );
}

test(
  "every route answers at its exact path with its heading and content",
  at(768, 1024),
  async ({ page, problems }) => {
    test.setTimeout(routes.length * 20_000);
    for (const route of routes) {
      await test.step(route, async () => {
        await expectRoute(page, route, await open(page, route, { networkIdle: true }));
        problems.expectNone();
        // Leaving cancels what the page still loads (a carousel's next slide): the test's doing, not the
        // site's, so it is not counted against the next route.
        await page.goto("about:blank");
        problems.consoleErrors.length = 0;
        problems.failedRequests.length = 0;
      });
    }
  },
);
