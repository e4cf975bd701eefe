/**
 * What the server decides rather than the built files: `/` forwards to /home, and an unknown path
 * answers 404 with the 404 page in the shell. With the forms' specs (contact-form,
 * no-javascript-form, before-hydration-form), these are the browser tests that depend on the server
 * behind the site: `npm run test:e2e:server` runs them against `gatsby serve` and its Functions (what
 * `npm start` serves); `test:e2e:nginx` runs every spec against nginx and the site's service.
 */
import { home, notFound } from "./support/content";
import { dependsOnServer, everyViewport, expect, open, saveScreenshot, test, width } from "./support/fixtures";
import { expectShell, horizontalOverflow, shotWidths } from "./support/page-checks";

test("/ ends on /home", dependsOnServer(everyViewport), async ({ page, problems }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(home.heading);
  await page.waitForLoadState("networkidle");
  // The forwarding page's meta refresh replaces it at once, cancelling the scripts it had started
  // to load (net::ERR_ABORTED); anything else is a real failure.
  problems.expectNone((entry) => entry.endsWith(": net::ERR_ABORTED"));
});

test("an unknown path shows the 404 page in the shell", dependsOnServer(everyViewport), async ({ page, problems }) => {
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
