/**
 * What the server decides rather than the built files: `/` forwards to /home, and an unknown path
 * answers 404 with the 404 page in the shell. With the forms' specs (contact-form,
 * no-javascript-form, before-hydration-form), these are the browser tests that depend on the server
 * behind the site: `npm run test:e2e:server` runs them against `gatsby serve` and its Functions (what
 * `npm start` serves); `test:e2e:nginx` runs every spec against nginx and the site's service.
 */
import type { Request } from "@playwright/test";
import { home, notFound } from "./support/content";
import {
  dependsOnServer,
  everyViewport,
  expect,
  open,
  saveScreenshot,
  sharedTabTest as test,
  width,
} from "./support/fixtures";
import { expectShell, horizontalOverflow, shotWidths } from "./support/page-checks";

test("/ ends on /home", dependsOnServer(everyViewport), async ({ page, problems }) => {
  // Where the server answers / with the forwarding page (gatsby serve; nginx answers 301), its meta
  // refresh leaves it at once, and the browser cancels what it had asked for (its icon), as for any
  // page a visitor leaves: those requests alone may end aborted.
  const forwardingPage = new Set<Request>();
  let left = false;
  page.on("request", (request) => {
    if (!left) forwardingPage.add(request);
  });
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() && new URL(frame.url()).pathname === "/home") left = true;
  });
  const cancelled: string[] = [];
  page.on("requestfailed", (request) => {
    if (forwardingPage.has(request) && request.failure()?.errorText === "net::ERR_ABORTED")
      cancelled.push(`${request.method()} ${request.url()}: net::ERR_ABORTED`);
  });
  await page.goto("/");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText(home.heading);
  await page.waitForLoadState("networkidle");
  // The forwarding page has no script to start; /home's own requests all succeed.
  problems.expectNone((problem) => cancelled.includes(problem));
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
  // The one expected 404: the document itself (the 404 page has no script to ask for page data).
  const own = [`127.0.0.1:${new URL(page.url()).port}${route}`];
  problems.expectNone(
    (entry) => entry.includes("404") && own.some((url) => entry.includes(`${url}:`) || entry.includes(`${url})`)),
  );
});
