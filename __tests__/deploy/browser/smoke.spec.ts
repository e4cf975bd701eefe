/**
 * Chromium against nginx with the project's configuration: on a page with behaviour (the home page's
 * carousel), its island alone, from 'self'; on a page without, no script at all; everywhere the
 * script-free menu and plain links, with the speculation rules prefetching the next page; all under
 * the Content-Security-Policy (script-src 'self' and the speculation rules' hash, no 'unsafe-inline'), and the contact
 * form while
 * the enquiry service stops and starts. Every route and the 404 page under the same policy, with no
 * violation, console error or failed request: the browser suite against nginx (`npm run test:e2e:nginx`).
 */
import { test, expect, type Page } from "@playwright/test";
import { startStack, type Stack } from "../support/stack";

let stack: Stack;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  stack = await startStack();
});

test.afterAll(async () => {
  test.setTimeout(30_000);
  await stack?.stop();
});

// The map frame comes from openstreetmap.org, out of reach of the tests: it is blocked, and its
// failure is not the site's.
const isMap = (url: string) => /^https?:\/\/([\w-]+\.)*openstreetmap\.org\//.test(url);

interface Watch {
  problems: string[];
  violations(): Promise<string[]>;
}

/**
 * Console errors and warnings, uncaught errors, failed requests, and CSP violation events. `blockMap`
 * false leaves the page's requests unrouted: Playwright does not report a speculative prefetch of a
 * page whose requests it intercepts (the prefetch still happens).
 */
async function watch(page: Page, { blockMap = true } = {}): Promise<Watch> {
  const problems: string[] = [];
  if (blockMap)
    await page.route(
      (u) => isMap(u.href),
      (route) => route.abort("blockedbyclient"),
    );
  await page.addInitScript(() => {
    const w = window as unknown as { __cspViolations: string[] };
    w.__cspViolations = [];
    document.addEventListener("securitypolicyviolation", (e) => {
      w.__cspViolations.push(
        `${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber}) sample: ${e.sample}`,
      );
    });
  });
  page.on("console", (message) => {
    if ((message.type() === "error" || message.type() === "warning") && !isMap(message.location().url)) {
      problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
    }
  });
  page.on("pageerror", (error) => problems.push(`uncaught ${error.name}: ${error.message}`));
  page.on("requestfailed", (request) => {
    if (!isMap(request.url()))
      problems.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  return {
    problems,
    violations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
  };
}

const url = (route: string) => `${stack.origin}${route}`;

/** The page's islands ran under the policy: each marks `island:<behaviour>` (src/islands/island-data.ts). */
async function expectIslands(page: Page): Promise<string[]> {
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll<HTMLScriptElement>("script[data-island]")].every(
        (s) => performance.getEntriesByName(`island:${s.dataset.island ?? ""}`).length > 0,
      ),
    undefined,
    { timeout: 10_000 },
  );
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLScriptElement>("script[data-island]")].map((s) => s.dataset.island ?? ""),
  );
}

test.describe("pages behind nginx, with scripts and without", () => {
  test("mobile, on a page with behaviour: its island alone runs, the carousel pauses, the script-free menu opens and a link loads the next page", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const w = await watch(page);
    const scripts: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(url("/home"), { waitUntil: "networkidle" });
    expect(await expectIslands(page)).toEqual(["carousel"]);
    expect(scripts).toEqual([expect.stringMatching(/^\/islands\/carousel-[A-Z0-9]+\.js$/)]);
    const carousel = page.locator('section[aria-roledescription="carousel"]');
    await carousel.getByRole("button", { name: "Pause slideshow" }).click();
    await expect(carousel.getByRole("button", { name: "Play slideshow" })).toBeVisible();
    const toggle = page.getByRole("navigation", { name: "Main" }).locator("details > summary");
    await toggle.click();
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(url("/aboutus"));
    // No client-side router: a link loads the next document.
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBeUndefined();
    expect(await w.violations()).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  test("mobile, on a page without behaviour: no script runs, the script-free menu opens, a link loads the next page", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const w = await watch(page);
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") documents.push(`script ${request.url()}`);
    });
    await page.goto(url("/aboutus"), { waitUntil: "networkidle" });
    expect(
      await page.evaluate(
        () => [...document.scripts].filter((s) => !["application/ld+json", "speculationrules"].includes(s.type)).length,
      ),
      "scripts in /aboutus",
    ).toBe(0);
    expect(await page.evaluate(() => HTMLScriptElement.supports?.("speculationrules") ?? false)).toBe(true);
    // The <details> toggle of the script-free menu (a <summary>, not a role=button).
    const toggle = page.getByRole("navigation", { name: "Main" }).locator("details > summary");
    await toggle.click();
    const services = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Services", exact: true });
    await expect(services).toBeVisible();
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await services.click();
    await expect(page).toHaveURL(url("/services"));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // A plain link: the browser loaded (or activated a prerendered) new document.
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBeUndefined();
    expect(documents, "no script was requested").toEqual([]);
    expect(await w.violations()).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  test("desktop, on a page without behaviour: Chromium takes the speculation rules and prefetches a link on hover", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    // /services has no map frame to block.
    const w = await watch(page, { blockMap: false });
    // Chromium's own account of the page's rule sets (DevTools' Preload domain): parsed, no error.
    const cdp = await page.context().newCDPSession(page);
    const ruleSets: Array<{ errorType?: string; errorMessage?: string }> = [];
    cdp.on("Preload.ruleSetUpdated", (e: { ruleSet: { errorType?: string; errorMessage?: string } }) =>
      ruleSets.push(e.ruleSet),
    );
    await cdp.send("Preload.enable");
    // Speculative fetches come from the browser, not the page: the context sees them, marked Sec-Purpose.
    const speculative: string[] = [];
    page.context().on("request", (request) => {
      const purpose = request.headers()["sec-purpose"];
      if (purpose?.startsWith("prefetch")) speculative.push(new URL(request.url()).pathname);
    });
    await page.goto(url("/services"), { waitUntil: "networkidle" });
    await expect.poll(() => ruleSets.length, { message: "the page's rule set" }).toBe(1);
    expect(ruleSets[0]!.errorType, ruleSets[0]!.errorMessage).toBeUndefined();
    expect(speculative, "nothing fetched before a pointer rests on a link").toEqual([]);
    // A menu link (prerendered where Chromium prerenders; headless here prefetches it) and a card's link.
    const menuLink = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Activities", exact: true });
    await menuLink.hover();
    await expect.poll(() => speculative).toContain("/activities");
    const card = page.getByRole("main").locator('a[href^="/services/"]').first();
    await card.hover();
    await expect.poll(() => speculative).toContain(await card.getAttribute("href"));
    await menuLink.click();
    await expect(page).toHaveURL(url("/activities"));
    expect(await w.violations()).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  test("the home carousel advances by itself", async ({ page }) => {
    const w = await watch(page);
    await page.goto(url("/home"), { waitUntil: "networkidle" });
    const carousel = page.locator('[aria-roledescription="carousel"]').first();
    const visibleSlide = carousel.locator('[aria-roledescription="slide"]:not([hidden])');
    await expect(visibleSlide).toHaveAttribute("aria-label", "1 of 4");
    await expect(visibleSlide).toHaveAttribute("aria-label", "2 of 4", { timeout: 8_000 });
    expect(await w.violations()).toEqual([]);
    expect(w.problems).toEqual([]);
  });
});

test.describe("the contact form through nginx", () => {
  async function fill(page: Page, message: string) {
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Send" }) });
    await form.locator('input[autocomplete="name"]').fill("Browser Test");
    await form.locator('input[autocomplete="email"]').fill("browser@example.in");
    await form.locator("textarea").fill(message);
    await form.getByRole("button", { name: "Send" }).click();
    return form;
  }

  test("sends: the success message, and the enquiry stored once", async ({ page }) => {
    const w = await watch(page);
    await page.goto(url("/contact"), { waitUntil: "networkidle" });
    const form = await fill(page, "Sent through nginx.");
    await expect(page.getByText("Your message has been sent successfully!")).toBeVisible();
    await expect(form.locator("textarea")).toHaveValue("");
    expect(stack.stored().filter((e) => e.message === "Sent through nginx.")).toHaveLength(1);
    expect(await w.violations()).toEqual([]);
    expect(w.problems).toEqual([]);
  });

  test("with the service stopped: the form's error message, values kept; after a restart it sends", async ({
    page,
  }) => {
    await page.goto(url("/contact"), { waitUntil: "networkidle" });
    expect(await stack.stopService("SIGTERM")).toBe(0);
    try {
      const form = await fill(page, "Sent while the service is down.");
      await expect(page.getByText("There was an error sending your message. Please try again later.")).toBeVisible();
      await expect(form.locator("textarea")).toHaveValue("Sent while the service is down.");
      expect(stack.stored().filter((e) => e.message === "Sent while the service is down.")).toHaveLength(0);
    } finally {
      await stack.startService();
    }
    await page.locator("form").getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Your message has been sent successfully!")).toBeVisible();
    expect(stack.stored().filter((e) => e.message === "Sent while the service is down.")).toHaveLength(1);
  });
});
