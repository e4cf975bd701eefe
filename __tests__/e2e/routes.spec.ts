/**
 * Every route of the spec's route table, at every viewport: it answers at its exact path, shows the
 * shell, its main heading and content, logs no console error, makes no failed request (the blocked
 * map frame aside) and nothing overflows horizontally. At 375 and 1280 px it also saves a full-page
 * screenshot under screenshots/<width>/.
 */
import type { Page } from "@playwright/test";
import { contentOf, home, notFound, screenshotName, site, routes } from "./support/content";
import { everyViewport, expect, open, saveScreenshot, test, width } from "./support/fixtures";

async function expectShell(page: Page) {
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: site.labels.homeLink })).toHaveAttribute("href", "/home");
  await expect(header.getByText(site.tagline)).toBeVisible();
  await expect(page.getByRole("navigation", { name: site.labels.mainNav })).toBeAttached();
  await expect(page.getByRole("contentinfo")).toBeVisible();
}

/** Elements sticking out of the viewport on the right, if the page scrolls sideways. */
async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= limit) return [];
    return [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => el.getBoundingClientRect().right > limit + 0.5)
      .slice(0, 10)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className} right=${Math.round(el.getBoundingClientRect().right)}`);
  });
}

const shotWidths = [375, 1280];

for (const route of routes) {
  test(`${route} answers at its exact path with its heading and content`, everyViewport, async ({ page, problems }) => {
    const response = await open(page, route, { networkIdle: true });
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
    if (shotWidths.includes(width(page))) await saveScreenshot(page, screenshotName(route));
    problems.expectNone();
  });
}

test("/ ends on /home", everyViewport, async ({ page, problems }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(home.heading);
  await page.waitForLoadState("networkidle");
  // The forwarding page's meta refresh replaces it at once, cancelling the scripts it had started
  // to load (net::ERR_ABORTED); anything else is a real failure.
  problems.expectNone((entry) => entry.endsWith(": net::ERR_ABORTED"));
});

test("an unknown path shows the 404 page in the shell", everyViewport, async ({ page, problems }) => {
  const route = "/no-such-page";
  const response = await open(page, route, { networkIdle: true });
  expect(response.status()).toBe(404);
  expect(new URL(page.url()).pathname).toBe(route);
  await expectShell(page);
  const main = page.getByRole("main");
  await expect(main.getByRole("heading", { level: 1 })).toHaveText(notFound.heading);
  for (const link of notFound.links)
    await expect(main.getByRole("link", { name: link.label, exact: true })).toHaveAttribute("href", link.to);
  expect(await horizontalOverflow(page)).toEqual([]);
  if (shotWidths.includes(width(page))) await saveScreenshot(page, "404");
  // Expected 404s: the document itself, and the page data Gatsby's loader asks for the unknown path
  // before it falls back to the 404 page's (Chrome logs each as a failed resource).
  const own = [`127.0.0.1:${new URL(page.url()).port}${route}`, `/page-data${route}/page-data.json`];
  problems.expectNone(
    (entry) => entry.includes("404") && own.some((url) => entry.includes(`${url}:`) || entry.includes(`${url})`)),
  );
});
