/**
 * What the inbox's browser tests (./inbox.spec.ts, ./inbox-reply.spec.ts) check on every page: no CSP
 * violation and no script error on a person's page, and axe at a phone's and a desktop's width.
 */
import { expect, type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { axe } from "../../e2e/support/fixtures";
import { pageWithAuthenticator } from "../support/inbox-people";

/** A person's page with its own virtual authenticator; CSP violations and script errors go to `problems`. */
export async function watchedPage(
  browser: Browser,
  problems: string[],
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext(options);
  await context.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  const page = await pageWithAuthenticator(context);
  // Failed requests (a 401 before signing in, a 409) are expected answers; scripts' errors are not.
  page.on("console", (m) => m.type() === "error" && /CSP violation/.test(m.text()) && problems.push(m.text()));
  page.on("pageerror", (e) => problems.push(e.message));
  return page;
}

/** axe finds nothing at 375 and at 1280 px; the page is given back at the size it had. */
export async function axeAt(page: Page, testInfo: Parameters<typeof axe>[1], target: string): Promise<void> {
  const size = page.viewportSize();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await axe(page, testInfo, `${target} at ${width} px`), `${target} at ${width} px`).toEqual([]);
  }
  if (size) await page.setViewportSize(size);
}
