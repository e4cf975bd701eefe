/**
 * The shell on every page: logo link, navigation order, the Services link and dropdown (hover,
 * keyboard, its entries each reaching its page), the hamburger menu at 768 px and below, and the
 * floating buttons (scroll thresholds, scroll to top, the messaging link).
 */
import type { Page } from "@playwright/test";
import { dropdownEntries, serviceOf, servicesPage, site, dropdownLabels, navLabels } from "./support/content";
import { at, everyViewport, expect, open, pageScripts, test, width } from "./support/fixtures";

const nav = (page: Page) => page.getByRole("navigation", { name: site.labels.mainNav });
const hamburger = (page: Page) => nav(page).getByRole("button", { name: site.labels.menuOpen });
const toggle = (page: Page) => nav(page).getByRole("button", { name: site.labels.servicesToggle });
const servicesLink = (page: Page) => nav(page).getByRole("link", { name: "Services", exact: true });
const mobile = (page: Page) => width(page) <= 768;

/** The dropdown list: the element the toggle button controls. */
async function dropdownList(page: Page) {
  const id = await toggle(page).getAttribute("aria-controls");
  return page.locator(`[id="${id}"]`);
}

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

test.describe("desktop navigation", () => {
  test("no hamburger; the dropdown opens on hover with its entries in order", at(1024, 1280), async ({ page }) => {
    await open(page, "/home");
    await expect(nav(page).getByRole("button", { name: site.labels.menuOpen })).toBeHidden();
    await expect(servicesLink(page)).toBeVisible();
    const list = await dropdownList(page);
    await expect(list).toBeHidden();
    await expect(toggle(page)).toHaveAttribute("aria-expanded", "false");

    await servicesLink(page).hover();
    await expect(list).toBeVisible();
    await expect(toggle(page)).toHaveAttribute("aria-expanded", "true");
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

  test(
    "the dropdown opens with Enter and Space on its button; Escape closes it and returns focus",
    at(1024, 1280),
    async ({ page }) => {
      await open(page, "/home");
      const list = await dropdownList(page);
      const button = toggle(page);
      // Keyboard entry: Tab from the Services link to its button (focus inside opens the list softly).
      await servicesLink(page).focus();
      await page.keyboard.press("Tab");
      await expect(button).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(list).toBeHidden();
      await expect(button).toBeFocused();
      await expect(button).toHaveAttribute("aria-expanded", "false");

      for (const key of ["Enter", "Space"]) {
        await page.keyboard.press(key);
        await expect(list, `${key} opens the list`).toBeVisible();
        await expect(button).toHaveAttribute("aria-expanded", "true");
        await expect(list.getByRole("link")).toHaveText(dropdownLabels);
        // Tab moves into the list, in order.
        await page.keyboard.press("Tab");
        await expect(list.getByRole("link").first()).toBeFocused();
        await page.keyboard.press("Tab");
        await expect(list.getByRole("link").nth(1)).toBeFocused();
        await page.keyboard.press("Escape");
        await expect(list, "Escape closes the list").toBeHidden();
        await expect(button, "focus returns to the button").toBeFocused();
        await expect(button).toHaveAttribute("aria-expanded", "false");
      }
      // A second Enter closes a list the button opened.
      await page.keyboard.press("Enter");
      await expect(list).toBeVisible();
      await page.keyboard.press("Enter");
      await expect(list).toBeHidden();
    },
  );

  test("each dropdown entry reaches its page", at(1280), async ({ page }) => {
    await open(page, "/home");
    for (const [i, entry] of dropdownEntries.entries()) {
      // Each page renders its own shell, so the list is looked up again after every navigation.
      const list = await dropdownList(page);
      await servicesLink(page).hover();
      const link = list.getByRole("link").nth(i);
      await expect(link).toHaveText(dropdownLabels[i]!);
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${entry.to}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(serviceOf(entry.to)!.title);
      await expect(list, "choosing an entry closes the list").toBeHidden();
    }
  });
});

test.describe("mobile navigation", () => {
  test("the hamburger toggles the menu; the dropdown is not shown", at(375, 768), async ({ page }) => {
    await open(page, "/home");
    const button = hamburger(page);
    const menu = nav(page).locator(":scope > ul");
    await expect(button).toBeVisible();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeHidden();

    await button.click();
    const close = nav(page).getByRole("button", { name: site.labels.menuClose });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    await expect(menu).toBeVisible();
    await expect(menu.locator(":scope > li > a")).toHaveText(navLabels);
    // The dropdown is not shown on mobile: neither its button nor its list, even on hover or a tap.
    const servicesItem = menu.locator(":scope > li").filter({ has: page.locator(':scope > a[href="/services"]') });
    await expect(servicesItem.locator(":scope > button")).toHaveCount(1);
    await expect(servicesItem.locator(":scope > button")).toBeHidden();
    await servicesLink(page).hover();
    await expect(servicesItem.locator(":scope > ul")).toHaveCount(1);
    await expect(servicesItem.locator(":scope > ul")).toBeHidden();

    await close.click();
    await expect(button).toHaveAttribute("aria-expanded", "false");
    await expect(menu).toBeHidden();

    // Escape closes the open menu and returns focus to the hamburger.
    await button.click();
    await expect(menu).toBeVisible();
    await menu.getByRole("link").first().focus();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
  });

  test("choosing any link closes the menu", at(375, 768), async ({ page }) => {
    await open(page, "/home");
    const menu = nav(page).locator(":scope > ul");
    const targets = ["/aboutus", "/whycyrus", "/services", "/activities", "/contact", "/home"];
    for (const to of targets) {
      await hamburger(page).click();
      await expect(menu).toBeVisible();
      await menu.locator(`:scope > li > a[href="${to}"]`).click();
      await expect(page).toHaveURL(new RegExp(`${to}$`));
      await expect(menu, `the menu closes after choosing ${to}`).toBeHidden();
      await expect(hamburger(page)).toHaveAttribute("aria-expanded", "false");
    }
  });
});

test.describe("floating buttons", () => {
  const scrollTo = (page: Page, top: number) =>
    page.evaluate((y) => window.scrollTo({ top: y, behavior: "instant" }), top);

  // /home loads its carousel's island, /services nothing: the floating buttons are the same links and CSS on both.
  for (const route of ["/home", "/services"])
    test(
      `on ${route}, scroll-to-top shows past 300 px by CSS and its link returns to the top; messaging always shows`,
      everyViewport,
      async ({ page }) => {
        await open(page, route);
        expect(await pageScripts(page), `${route} runs no script of the shell`).toEqual(
          route === "/home" ? [expect.stringMatching(/\/islands\/carousel-[A-Z0-9]+\.js$/) as unknown as string] : [],
        );
        const toTop = page.getByRole("link", { name: site.labels.scrollTop });
        const chat = page.getByRole("link", { name: site.messaging.label });
        await expect(toTop).toBeHidden();
        await expect(chat).toBeVisible();
        await scrollTo(page, 301);
        await expect(toTop).toBeVisible();
        await scrollTo(page, 300);
        await expect(toTop).toBeHidden();
        await expect(chat).toBeVisible();
        await scrollTo(page, 2000);
        await toTop.click();
        await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5_000 }).toBe(0);
        await expect(toTop).toBeHidden();
        await expect(page, "a plain link to #top").toHaveURL(new RegExp(`${route}#top$`));
      },
    );

  test(
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
