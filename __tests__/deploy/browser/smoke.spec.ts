/**
 * Chromium against nginx with the project's configuration: hydration and client-side navigation under
 * the Content-Security-Policy (script-src by hashes, no 'unsafe-inline'), and the contact form while
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

/** Console errors and warnings, uncaught errors, failed requests, and CSP violation events. */
async function watch(page: Page): Promise<Watch> {
  const problems: string[] = [];
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

/** The page's scripts ran: React has hydrated Gatsby's root (it marks its container). */
async function expectHydrated(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const root = document.getElementById("___gatsby");
      return root !== null && Object.keys(root).some((key) => key.startsWith("__reactContainer"));
    },
    undefined,
    { timeout: 10_000 },
  );
}

test.describe("hydration behind nginx", () => {
  test("mobile: the hamburger toggles the menu, and a link navigates in the page and closes it", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const w = await watch(page);
    await page.goto(url("/home"), { waitUntil: "networkidle" });
    await expectHydrated(page);
    const hamburger = page.getByRole("button", { name: "Open menu" });
    await expect(hamburger).toHaveAttribute("aria-expanded", "false");
    await hamburger.click();
    const close = page.getByRole("button", { name: "Close menu" });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    await page.evaluate(() => ((window as unknown as { __samePage: boolean }).__samePage = true));
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About Us" }).click();
    await expect(page).toHaveURL(url("/aboutus"));
    // Client-side navigation (page-data fetched under connect-src 'self'), not a reload.
    expect(await page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage)).toBe(true);
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
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
