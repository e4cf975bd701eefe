/**
 * The shell on every page, with JavaScript on: logo link, navigation order, the Services link and
 * dropdown (hover, its entries each reaching its page), the hamburger menu at 768 px and below, and
 * the floating buttons (the spec's scroll thresholds, by CSS; scroll to top, the messaging link). No page scripts the
 * shell: these are its script-free forms, as no-javascript-shell.spec.ts has them without JavaScript.
 */
import type { Page } from "@playwright/test";
import { dropdownEntries, serviceOf, servicesPage, site, dropdownLabels, navLabels } from "./support/content";
import {
  at,
  everyViewport,
  expect,
  open,
  pageScripts,
  sharedTabTest as test,
  test as ownContextTest,
  width,
} from "./support/fixtures";
import { dropdown, servicesToggle } from "./support/shell";

const nav = (page: Page) => page.getByRole("navigation", { name: site.labels.mainNav });
/** The hamburger: a <summary> (no page scripts its shell), which Playwright's role queries do not list as a button. */
const hamburger = (page: Page) => nav(page).locator("details > summary");
const servicesLink = (page: Page) => nav(page).getByRole("link", { name: "Services", exact: true });
const mobile = (page: Page) => width(page) <= 768;

/** The main links as a visitor sees them (the mobile menu opened first). */
async function topLevelLinks(page: Page) {
  if (mobile(page)) await hamburger(page).click();
  return nav(page).locator(":scope > ul > li > a");
}

test("the logo links to /home", everyViewport, async ({ page }) => {
  await open(page, "/aboutus");
  const logo = page.getByRole("banner").getByRole("link", { name: site.labels.homeLink });
  await expect(logo).toBeVisible();
  await expect(logo.getByRole("img")).toHaveCount(0); // the logo image is decorative inside a named link
  await expect(logo).toContainText(site.name);
  await logo.click();
  await expect(page).toHaveURL(/\/home$/);
});

test("the navigation is in the spec's order and Services links to /services", everyViewport, async ({ page }) => {
  await open(page, "/home");
  const links = await topLevelLinks(page);
  await expect(links).toHaveText(navLabels);
  expect(await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual([
    "/home",
    "/aboutus",
    "/whycyrus",
    "/services",
    "/activities",
    "/contact",
  ]);
  await servicesLink(page).click();
  await expect(page).toHaveURL(/\/services$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(servicesPage.heading);
});

// The shell is the same on every page, with scripts or without (no page scripts it): its keyboard
// walk and the dropdown's opening on focus are no-javascript-shell.spec.ts's; here with JavaScript on.
test.describe("desktop navigation", () => {
  test("no hamburger; the dropdown opens on hover with its entries in order", at(1024, 1280), async ({ page }) => {
    await open(page, "/home");
    await expect(hamburger(page)).toBeHidden();
    await expect(servicesLink(page)).toBeVisible();
    await expect(servicesToggle(page), "the button beside it (no-javascript-shell.spec.ts opens it)").toBeVisible();
    const list = dropdown(page);
    await expect(list).toBeHidden();

    await servicesLink(page).hover();
    await expect(list).toBeVisible();
    const entries = list.getByRole("link");
    await expect(entries).toHaveCount(dropdownLabels.length);
    await expect(entries).toHaveText(dropdownLabels);
    expect(await entries.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(
      dropdownEntries.map((e) => e.to),
    );
    // Moving down onto the list keeps it open; leaving the item closes it.
    await entries.last().hover();
    await expect(list).toBeVisible();
    await page.getByRole("main").hover({ position: { x: 5, y: 300 } });
    await expect(list).toBeHidden();
  });

  test("each dropdown entry reaches its page", at(1280), async ({ page }) => {
    await open(page, "/home");
    for (const [i, entry] of dropdownEntries.entries()) {
      await servicesLink(page).hover();
      const link = dropdown(page).getByRole("link").nth(i);
      await expect(link).toHaveText(dropdownLabels[i]!);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${entry.to}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(serviceOf(entry.to)!.title);
      await page.mouse.move(0, 400);
      await expect(dropdown(page), "the next page's list starts closed").toBeHidden();
    }
  });
});

test.describe("mobile navigation", () => {
  test("the hamburger toggles the menu; the dropdown is not shown", at(375, 768), async ({ page }) => {
    await open(page, "/home");
    const menu = nav(page).locator(":scope > ul");
    await expect(hamburger(page)).toBeVisible();
    await expect(menu).toBeHidden();

    await hamburger(page).click();
    await expect(menu).toBeVisible();
    await expect(menu.locator(":scope > li > a")).toHaveText(navLabels);
    // The dropdown is not shown on mobile, even on hover.
    await servicesLink(page).hover();
    await expect(dropdown(page)).toHaveCount(1);
    await expect(dropdown(page)).toBeHidden();
    await expect(servicesToggle(page)).toBeHidden();

    await hamburger(page).click();
    await expect(menu).toBeHidden();
  });

  test("choosing any link loads its page with the menu closed", at(375, 768), async ({ page }) => {
    await open(page, "/home");
    const menu = nav(page).locator(":scope > ul");
    const targets = ["/aboutus", "/whycyrus", "/services", "/activities", "/contact", "/home"];
    for (const to of targets) {
      await hamburger(page).click();
      await expect(menu).toBeVisible();
      await menu.locator(`:scope > li > a[href="${to}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${to}$`));
      await expect(menu, `the menu is closed after choosing ${to}`).toBeHidden();
    }
  });
});

test.describe("floating buttons", () => {
  const scrollTo = (page: Page, top: number) =>
    page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), top);

  // /home loads its carousel's island, /services nothing: the floating buttons are the same links and CSS on both.
  for (const route of ["/home", "/services"])
    test(
      `on ${route}, CSS follows the spec's state table: messaging on first load, both exactly past 300 px; scroll-to-top returns to the top`,
      everyViewport,
      async ({ page }) => {
        await open(page, route);
        expect(await pageScripts(page), `${route} runs no script of the shell`).toEqual(
          route === "/home" ? [expect.stringMatching(/\/islands\/carousel-[A-Z0-9]+\.js$/) as unknown as string] : [],
        );
        // The same two links throughout: hidden ones are out of the accessibility tree, not out of the page.
        const toTop = page.getByRole("link", { name: site.labels.scrollTop, includeHidden: true });
        const chat = page.getByRole("link", { name: site.messaging.label, includeHidden: true });
        await expect(toTop).toHaveCount(1);
        await expect(chat).toHaveCount(1);
        // First load, at the top: messaging only.
        await expect(toTop).toBeHidden();
        await expect(chat).toBeVisible();
        // Scrolled, at 300 px or less: neither; past 300 px: both.
        for (const [y, shown] of [
          [1, false],
          [150, false],
          [301, true],
          [300, false],
          [1200, true],
          [299, false],
        ] as const) {
          await scrollTo(page, y);
          await expect(toTop, `scroll-to-top at ${y} px`).toBeVisible({ visible: shown });
          await expect(chat, `messaging at ${y} px`).toBeVisible({ visible: shown });
        }
        await scrollTo(page, 2000);
        await toTop.click();
        await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5_000 }).toBe(0);
        await expect(toTop).toBeHidden();
        // Back at the top CSS cannot tell this from the first load, where the spec hides messaging: it shows.
        await expect(chat).toBeVisible();
        await expect(page, "a plain link to #top").toHaveURL(new RegExp(`${route}#top$`));
      },
    );

  // Its own context: the popup opens in it, answered by the context's route.
  ownContextTest(
    "the messaging link opens the app with the greeting for the provider's number",
    everyViewport,
    async ({ page, context }) => {
      await open(page, "/home");
      const chat = page.getByRole("link", { name: site.messaging.label });
      const href = await chat.getAttribute("href");
      const url = new URL(href!);
      expect(`${url.origin}${url.pathname}`).toBe(`https://wa.me/${site.messaging.number}`);
      expect(url.searchParams.get("text")).toBe("Hello, I need help!");
      expect(href).toBe(
        "https://wa.me/910000000000?text=Hello%2C%20I%20need%20help!".replace("910000000000", site.messaging.number),
      );
      await expect(chat).toHaveAttribute("target", "_blank");
      await expect(chat).toHaveAttribute("rel", "noopener noreferrer");
      // Clicking opens it in a new tab (answered locally: wa.me is not reachable from the tests).
      await context.route("https://wa.me/**", (route) =>
        route.fulfill({ contentType: "text/html", body: "<title>wa.me</title>" }),
      );
      const [popup] = await Promise.all([page.waitForEvent("popup"), chat.click()]);
      await expect.poll(() => popup.url()).toBe(href);
    },
  );
});
