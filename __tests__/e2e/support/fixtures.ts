/**
 * The tests' `test`: baseURL is the site the global setup serves; every context blocks the map
 * frame's request to openstreetmap.org (unreachable from CI); `problems` collects console errors,
 * uncaught exceptions, failed requests (the map frame aside) and Content-Security-Policy violations
 * (against nginx, whose CSP allows inline scripts by hash only: `npm run test:e2e:nginx`).
 */
import fs from "node:fs";
import path from "node:path";
import {
  test as base,
  expect,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
  type Request,
  type Response,
  type Route,
  type TestInfo,
} from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { projectRoot } from "../../support/serve";
import { withSharedTab } from "../../support/shared-tab";

export { expect };

export function env(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the tests with playwright test -c __tests__/e2e/playwright.config.ts`);
  return value;
}

/** Tags a test with the viewport widths (projects) it runs at. */
export const at = (...widths: Array<375 | 768 | 1024 | 1280>) => ({ tag: widths.map((w) => `@${w}`) });
export const everyViewport = at(375, 768, 1024, 1280);
/** Tags a test with the viewport widths it runs at with JavaScript disabled (projects nojs-375, nojs-1280). */
export const noJsAt = (...widths: Array<375 | 1280>) => ({ tag: widths.map((w) => `@nojs-${w}`) });

/**
 * Marks a test whose outcome depends on the server behind the site (the enquiry form posted through
 * Gatsby's Functions or nginx and the service, what `/` and an unknown path answer): `npm run
 * test:e2e:server` runs these against `gatsby serve` (`--grep @server`); the others browse the same
 * built files whichever server sends them, and run once, against nginx.
 */
export const dependsOnServer = (details: { tag: string[] }) => ({ tag: [...details.tag, "@server"] });

/** The map frame's source: the one request the tests block and allow to fail. */
export const isMapRequest = (url: string) => /^https?:\/\/([\w-]+\.)*openstreetmap\.org\//.test(url);

/** The page's `rel=icon` (the tab's icon), which the browser fetches by itself. */
const isTabIcon = (url: string) => /^\/favicon[\w-]*\.(png|ico|svg)$/.test(new URL(url).pathname);

export interface Problems {
  consoleErrors: string[];
  failedRequests: string[];
  /** Fails the test when anything was collected; `allow` skips expected entries (e.g. a 404's own document). */
  expectNone(allow?: (entry: string) => boolean): void;
}

/** What every context of the tests does: the map frame blocked, CSP violations logged as errors. */
async function prepareContext(context: BrowserContext) {
  await context.route(
    (url) => isMapRequest(url.href),
    (route) => route.abort("blockedbyclient"),
  );
  // A violation the browser does not log itself (one of a report-only policy, say) still fails the test.
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(
        `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
}

export const test = base.extend<{ problems: Problems }>({
  baseURL: async ({}, use) => {
    await use(env("E2E_BASE_URL"));
  },
  context: async ({ context }, use) => {
    await prepareContext(context);
    await use(context);
  },
  problems: async ({ page }, use) => {
    const consoleErrors: string[] = [];
    const failedRequests: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() !== "error" || isMapRequest(message.location().url)) return;
      consoleErrors.push(`${message.text()} (${message.location().url})`);
    };
    const onPageError = (error: Error) => consoleErrors.push(`uncaught ${error.name}: ${error.message}`);
    // A navigation cancels what the page it leaves still had under way (its favicon, say): the
    // browser's doing, not the site's. Such a request is one started before a later navigation.
    let navigations = 0;
    const startedBefore = new WeakMap<Request, number>();
    const onRequest = (request: Request) => {
      startedBefore.set(request, navigations);
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations++;
    };
    const onRequestFailed = (request: Request) => {
      if (isMapRequest(request.url())) return;
      const errorText = request.failure()?.errorText;
      const aborted = errorText === "net::ERR_ABORTED" && !request.isNavigationRequest();
      const leftBehind = aborted && (startedBefore.get(request) ?? navigations) < navigations;
      // The tab's icon is the browser's own fetch, started when a page has loaded: one issued just as
      // the test moves on (after the next navigation's request) is cancelled by that navigation's
      // commit. A missing icon still fails as its HTTP status (below).
      const tabIcon = aborted && isTabIcon(request.url());
      if (!leftBehind && !tabIcon) failedRequests.push(`${request.method()} ${request.url()}: ${errorText}`);
    };
    const onResponse = (response: Response) => {
      if (response.status() >= 400 && !isMapRequest(response.url())) {
        failedRequests.push(`${response.request().method()} ${response.url()}: HTTP ${response.status()}`);
      }
    };
    page.on("console", onConsole);
    page.on("pageerror", onPageError);
    page.on("request", onRequest);
    page.on("requestfailed", onRequestFailed);
    page.on("response", onResponse);
    await use({
      consoleErrors,
      failedRequests,
      expectNone(allow = () => false) {
        expect
          .soft(
            consoleErrors.filter((e) => !allow(e)),
            "console errors",
          )
          .toEqual([]);
        expect(
          failedRequests.filter((e) => !allow(e)),
          "failed requests",
        ).toEqual([]);
      },
    });
  },
});

/**
 * For tests that load pages, look, hover, click, type and send, and need nothing of the context
 * itself (its routes, a popup, storage: the site keeps none but the form's cookie): the tests of a
 * worker share one tab (__tests__/support/shared-tab.ts). Before each test it goes to about:blank,
 * and its emulated media, pointer and cookies are reset; after it, the test's listeners, routes and
 * window size are undone. A new context and tab per test (a renderer process and its start)
 * cost about as much CPU as a page of the site itself. The HTTP cache stays off, as in every context
 * of these tests (Playwright turns it off where requests are routed: the map's, above).
 */
export const sharedTabTest = test.extend<object, { sharedTab: Page }>({
  sharedTab: [
    async ({ browser }, use, workerInfo) => {
      const { viewport, javaScriptEnabled, locale, timezoneId, serviceWorkers } = workerInfo.project.use;
      const context = await browser.newContext({
        viewport,
        javaScriptEnabled,
        locale,
        timezoneId,
        serviceWorkers,
        baseURL: env("E2E_BASE_URL"),
      });
      await prepareContext(context);
      await use(await context.newPage());
      await context.close();
    },
    { scope: "worker" },
  ],
  page: async ({ sharedTab }, use, testInfo) =>
    // about:blank first cancels what the previous test's page still loaded (a carousel's next slide)
    // before this test's problems are collected; its listeners (the `problems` fixture's among
    // them), routes and window size go after it.
    withSharedTab(sharedTab, testInfo.project.use.viewport, async (tab) => {
      await tab.emulateMedia({ media: null, colorScheme: null, reducedMotion: null, forcedColors: null });
      await tab.mouse.move(0, 0);
      await tab.context().clearCookies();
      await use(tab);
    }),
});

/**
 * Loads a route and, on a page that loads islands (one with a carousel, the enquiry form, the map
 * or Why Cyrus's cards: docs/performance.md), waits until each has taken over its elements (each
 * marks `island:<behaviour>`, src/islands/island-data.ts). A page without behaviour has no script
 * to wait for: it is ready at its load event. `networkIdle` also waits until no request has been
 * under way for 500 ms (images, prefetched pages).
 */
export async function open(page: Page, route: string, { networkIdle = false } = {}) {
  const response = await page.goto(route, { waitUntil: networkIdle ? "networkidle" : "load" });
  if (!response) throw new Error(`no response for ${route}`);
  if (await carriesScripts(page)) await waitForHydration(page);
  return response;
}

/** Whether the page loads islands; a page without behaviour loads none. */
export const carriesScripts = async (page: Page) => (await page.locator("script[data-island]").count()) > 0;

/** The scripts a page's HTML runs (code, not data such as JSON-LD or speculation rules), by id or src. */
export const pageScripts = (page: Page) =>
  page.evaluate(() =>
    [...document.scripts]
      .filter((s) => ["", "module", "text/javascript", "application/javascript"].includes(s.type.toLowerCase()))
      .map((s) => s.id || s.src || "(inline)"),
  );

/**
 * Loads a route and returns once its HTML is parsed, without waiting for scripts or hydration: for
 * pages browsed without JavaScript, or whose scripts are held back (see holdScripts).
 */
export async function openWithoutScripts(page: Page, route: string) {
  const response = await page.goto(route, { waitUntil: "domcontentloaded" });
  if (!response) throw new Error(`no response for ${route}`);
  return response;
}

/** Whether every island the page loads has taken over its elements. */
export const isHydrated = (page: Page) =>
  page.evaluate(() => {
    const islands = [...document.querySelectorAll<HTMLScriptElement>("script[data-island]")];
    return (
      islands.length > 0 &&
      islands.every((s) => performance.getEntriesByName(`island:${s.dataset.island ?? ""}`).length > 0)
    );
  });

/**
 * Holds back every script the site serves (its .js files: the islands' requests wait), as on a slow
 * connection before they arrive. `release()` lets them all through,
 * those waiting and those to come. Call it before page.goto.
 */
export async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  const origin = new URL(env("E2E_BASE_URL")).origin;
  await page.route(
    (url) => url.origin === origin && url.pathname.endsWith(".js"),
    (route) => (released ? route.continue() : void held.push(route)),
  );
  return {
    /** How many script requests are waiting. */
    held: () => held.length,
    async release() {
      released = true;
      // A script of a page the browser has left since (a form posted natively) was cancelled with it.
      await Promise.all(held.splice(0).map((route) => route.continue().catch(() => undefined)));
    },
  };
}

/** Waits until every island of the page has marked `island:<behaviour>` (src/islands/island-data.ts). */
export async function waitForHydration(page: Page) {
  try {
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll<HTMLScriptElement>("script[data-island]")].every(
          (s) => performance.getEntriesByName(`island:${s.dataset.island ?? ""}`).length > 0,
        ),
      undefined,
      { timeout: 15_000 },
    );
  } catch (error) {
    throw new Error(`${page.url()}: an island never marked that it took over within 15 s (${String(error)})`);
  }
}

export const width = (page: Page) => page.viewportSize()!.width;

/** The WCAG 2.0/2.1/2.2 A and AA rules the issue asks for. */
export const axeTags = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/**
 * The frames of the page other than the map's (whose page is another site's: blocked here, or the
 * keyboard walk's stand-in for it), by their src.
 */
export async function framesOtherThanTheMap(page: Page): Promise<string[]> {
  const others: string[] = [];
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    const element = await frame.frameElement().catch(() => null);
    if (!element) continue; // detached meanwhile
    const src = (await element.getAttribute("src")) ?? frame.url();
    if (!isMapRequest(src)) others.push(src);
  }
  return others;
}

/**
 * Runs axe-core on the page as it is now, records the count as an `axe` annotation (the summary
 * reporter prints them per route) and returns the violations, each summarised for a readable failure.
 *
 * In the page's own document only (axe's legacy mode): by default axe also runs inside every frame and
 * merges the results in a blank page it opens for each check, which took 40-55 % of each check's time
 * (CI time); the site's only frame is the map, another site's page that is not the site's to fix and
 * is not loaded here. The frame element itself (its title, its place in the Tab order) is checked in
 * the page as before. A frame of the site's own would go unchecked inside: it fails the check instead.
 */
export async function axe(page: Page, testInfo: TestInfo, target: string) {
  expect(await framesOtherThanTheMap(page), "frames axe does not look inside (only the map's may be there)").toEqual(
    [],
  );
  const results = await new AxeBuilder({ page }).withTags(axeTags).setLegacyMode(true).analyze();
  const violations = results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ")}`),
  }));
  testInfo.annotations.push({
    type: "axe",
    description: JSON.stringify({
      target,
      viewport: testInfo.project.name,
      violations: violations.length,
      rules: violations.map((v) => v.id),
    }),
  });
  return violations;
}

/** Whether full-page captures are saved: not under CI=true, unless E2E_SCREENSHOTS=1. */
const screenshotsWanted = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS !== "0" : !process.env.CI;

/**
 * Saves a full-page screenshot under screenshots/<width>/<name>.png (git-ignored) for people to look at.
 *
 * Lazy images below the fold would be blank in a full-page capture, so it loads them all first, and
 * waits until every image of the page has arrived, the hidden carousel slides' included: a full-page
 * capture resizes the viewport for a moment (Chromium sometimes makes it 1×1 px, firing a resize),
 * and an image still loading then picks another width from its srcset, cancelling the request under
 * way (net::ERR_ABORTED, which `problems` would report). Once every image has loaded, the capture
 * starts no request: the browser keeps the width it already has, and no slide is left to load.
 */
export async function saveScreenshot(page: Page, name: string) {
  await page.evaluate(() =>
    document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]').forEach((img) => (img.loading = "eager")),
  );
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          [...document.querySelectorAll<HTMLImageElement>("img")]
            .filter((img) => !img.complete || img.naturalWidth === 0)
            .map((img) => img.currentSrc || img.src),
        ),
      { message: "every image of the page loads, shown or hidden", timeout: 15_000 },
    )
    .toEqual([]);
  // The pictures are for people to look at, and in CI nobody does: a capture of a tall page costs a
  // second or two of the CPU the other tests share. E2E_SCREENSHOTS=1 saves them there too.
  if (!screenshotsWanted) return;
  const file = path.join(projectRoot, "screenshots", String(width(page)), `${name}.png`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: true, animations: "disabled" });
}
