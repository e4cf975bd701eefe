/**
 * The shell with JavaScript disabled (projects nojs-375 and nojs-1280): the hamburger opens and
 * closes the menu by HTML alone and its links navigate; the Services dropdown shows on hover and while
 * its link has focus by CSS, and its button opens it as a popover (expanded state, Tab through its
 * entries, Escape closing it and returning focus, a click elsewhere closing it) by HTML alone; its
 * entries navigate; the dropdown and its button stay hidden on
 * mobile; scroll-to-top is a link that shows past 300 px (CSS scroll-driven animation) and brings the
 * page to the top; the Why Cyrus descriptions show on hover and focus (the focused button announcing
 * the description, claiming no expanded state it could not change); axe finds nothing with the
 * menu or the dropdown open.
 */
import type { Browser, Page, TestInfo } from "@playwright/test";
import { dropdownEntries, serviceOf, site, dropdownLabels, navLabels } from "./support/content";
import {
  axe,
  expect,
  holdScripts,
  isHydrated,
  noJsAt,
  openWithoutScripts,
  sharedTabTest as test,
} from "./support/fixtures";
import { dropdown, expandedState, menu, nav, scrollTo, servicesLink, servicesToggle } from "./support/shell";
import { expectDescriptionsRevealOnHoverAndFocus } from "./support/why-cyrus";

const { menuOpen, menuClose } = site.labels as Record<"menuOpen" | "menuClose", string>;

/** The script-free hamburger: a <summary>, which Playwright's role queries do not list as a button. */
const menuToggle = (page: Page) => nav(page).locator("details > summary");
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

async function openPage(page: Page, route: string) {
  await openWithoutScripts(page, route);
  expect(await isHydrated(page), "no script ran").toBe(false);
}

/**
 * axe-core runs on timers, which Chromium does not fire in a page without JavaScript (turning script
 * execution back on for axe does not change that). So axe checks a twin: the same route opened with
 * JavaScript on but every script held back (only the inline loader runs; its requests wait), brought
 * to the same state by `setUp`, once the twin's document is found to be the very one the page
 * without JavaScript shows.
 */
async function axeOnTwin(
  page: Page,
  browser: Browser,
  testInfo: TestInfo,
  target: string,
  setUp: (p: Page) => Promise<void>,
) {
  const route = new URL(page.url()).pathname;
  await setUp(page);
  // Contexts made in a test take the project's options, javaScriptEnabled: false among them.
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const twin = await context.newPage();
    await holdScripts(twin);
    await openWithoutScripts(twin, route);
    await setUp(twin);
    const documentOf = (p: Page) => p.locator("#___gatsby").evaluate((root) => root.outerHTML);
    expect(await documentOf(twin), "the twin shows the same document").toBe(await documentOf(page));
    expect(await isHydrated(twin), "nothing hydrated the twin").toBe(false);
    return await axe(twin, testInfo, target);
  } finally {
    await context.close();
  }
}

test.describe("mobile menu without JavaScript", () => {
  test(
    "the hamburger opens and closes the menu, and a link in it navigates to a page whose menu starts closed",
    noJsAt(375),
    async ({ page, problems }) => {
      await openPage(page, "/home");
      const toggle = menuToggle(page);
      await expect(toggle).toBeVisible();
      await expect(toggle).toHaveAccessibleName(menuOpen);
      await expect(menu(page)).toBeHidden();

      await toggle.click();
      await expect(menu(page)).toBeVisible();
      await expect(toggle).toHaveAccessibleName(menuClose);
      await expect(menu(page).locator(":scope > li > a")).toHaveText(navLabels);

      await toggle.click();
      await expect(menu(page)).toBeHidden();
      await expect(toggle).toHaveAccessibleName(menuOpen);

      // From the keyboard: Enter and Space on the focused toggle.
      await toggle.focus();
      await page.keyboard.press("Enter");
      await expect(menu(page)).toBeVisible();
      await page.keyboard.press("Space");
      await expect(menu(page)).toBeHidden();

      await toggle.click();
      await menu(page).getByRole("link", { name: "About Us" }).click();
      await expect(page).toHaveURL(/\/aboutus$/);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(menuToggle(page)).toHaveAccessibleName(menuOpen);
      await expect(menu(page), "the new page starts with the menu closed").toBeHidden();
      problems.expectNone();
    },
  );

  test("the Services dropdown is not shown, even on hover or focus", noJsAt(375), async ({ page }) => {
    await openPage(page, "/home");
    await menuToggle(page).click();
    await expect(servicesLink(page)).toBeVisible();
    await expect(dropdown(page).locator("a")).toHaveCount(dropdownLabels.length);
    await servicesLink(page).hover();
    await expect(dropdown(page)).toBeHidden();
    await servicesLink(page).focus();
    await expect(dropdown(page)).toBeHidden();
    await expect(servicesToggle(page), "no dropdown button either").toBeHidden();
    await page.keyboard.press("Tab");
    await expect(nav(page).getByRole("link", { name: "Activities" }), "Tab skips the hidden entries").toBeFocused();
  });

  test("axe: the open menu", noJsAt(375), async ({ page, browser }, testInfo) => {
    await openPage(page, "/home");
    const openMenu = async (p: Page) => {
      await menuToggle(p).click();
      await expect(nav(p).getByRole("link", { name: "Contact Us" })).toBeVisible();
    };
    expect(
      await axeOnTwin(page, browser, testInfo, "open mobile menu, no JavaScript", openMenu),
      "axe violations",
    ).toEqual([]);
  });
});

test.describe("desktop dropdown without JavaScript", () => {
  test(
    "no hamburger; the dropdown opens on hover with its entries in order and closes when the pointer leaves",
    noJsAt(1280),
    async ({ page }) => {
      await openPage(page, "/home");
      await expect(menuToggle(page)).toBeHidden();
      await expect(menu(page)).toBeVisible();
      await expect(dropdown(page)).toBeHidden();
      await servicesLink(page).hover();
      await expect(dropdown(page)).toBeVisible();
      const entries = dropdown(page).getByRole("link");
      await expect(entries).toHaveText(dropdownLabels);
      expect(await entries.evaluateAll((as) => as.map((a) => a.getAttribute("href")))).toEqual(
        dropdownEntries.map((e) => e.to),
      );
      await entries.last().hover();
      await expect(dropdown(page)).toBeVisible();
      await page.getByRole("main").hover({ position: { x: 5, y: 300 } });
      await expect(dropdown(page)).toBeHidden();
    },
  );

  test(
    "focus on Services shows the dropdown; its button opens it for the keyboard, Tab walks its entries, Escape closes it",
    noJsAt(1280),
    async ({ page }) => {
      const toggleName = site.labels.servicesToggle;
      await openPage(page, "/home");
      await nav(page).getByRole("link", { name: "Why Cyrus" }).focus();
      await page.keyboard.press("Tab");
      await expect(servicesLink(page)).toBeFocused();
      await expect(dropdown(page), "shown while the link has focus").toBeVisible();

      await page.keyboard.press("Tab");
      await expect(servicesToggle(page)).toBeFocused();
      await expect(dropdown(page)).toBeHidden();
      expect(await expandedState(page, toggleName), "collapsed, as it looks").toBe(false);

      await page.keyboard.press("Enter");
      await expect(dropdown(page)).toBeVisible();
      expect(await expandedState(page, toggleName)).toBe(true);
      const entries = dropdown(page).getByRole("link");
      for (const [i, label] of dropdownLabels.entries()) {
        await page.keyboard.press("Tab");
        await expect(entries.nth(i), `Tab #${i + 1} reaches ${label}`).toBeFocused();
        await expect(entries.nth(i)).toHaveText(label);
      }
      await page.keyboard.press("Escape");
      await expect(dropdown(page)).toBeHidden();
      await expect(servicesToggle(page), "Escape returns focus to the button").toBeFocused();
      expect(await expandedState(page, toggleName)).toBe(false);

      // Space opens it as well; with it open, Tab leaves the last entry for the next item, and Escape
      // still closes it, leaving focus where it is.
      await page.keyboard.press("Space");
      await expect(dropdown(page)).toBeVisible();
      for (let i = 0; i <= dropdownLabels.length; i++) await page.keyboard.press("Tab");
      const activities = nav(page).getByRole("link", { name: "Activities" });
      await expect(activities).toBeFocused();
      await page.keyboard.press("Escape");
      await expect(dropdown(page)).toBeHidden();
      await expect(activities).toBeFocused();
      expect(await expandedState(page, toggleName)).toBe(false);
    },
  );

  test(
    "a click or tap on the button opens the dropdown, a second closes it, and so does a click elsewhere",
    noJsAt(1280),
    async ({ page }) => {
      const toggleName = site.labels.servicesToggle;
      await openPage(page, "/services");
      await servicesToggle(page).click();
      // Off the item, so hover plays no part: what shows is the button's state alone.
      await page.mouse.move(5, 700);
      await expect(dropdown(page)).toBeVisible();
      expect(await expandedState(page, toggleName)).toBe(true);
      await servicesToggle(page).click();
      await page.mouse.move(5, 700);
      await expect(dropdown(page)).toBeHidden();
      expect(await expandedState(page, toggleName)).toBe(false);

      await servicesToggle(page).click();
      await page.mouse.click(5, 700);
      await expect(dropdown(page)).toBeHidden();
      expect(await expandedState(page, toggleName)).toBe(false);

      // Opened after scrolling, it is where hover shows it at the top: under the item, in the sticky header.
      await servicesLink(page).hover();
      const hovered = await dropdown(page).boundingBox();
      await page.mouse.move(5, 700);
      await scrollTo(page, 1200);
      await servicesToggle(page).click();
      await page.mouse.move(5, 700);
      await expect(dropdown(page)).toBeVisible();
      expect(await dropdown(page).boundingBox()).toEqual(hovered);
      await expect(dropdown(page).getByRole("link").first()).toBeInViewport();
    },
  );

  test("a dropdown entry navigates to its page", noJsAt(1280), async ({ page, problems }) => {
    await openPage(page, "/home");
    const entry = dropdownEntries[6]!;
    await servicesLink(page).hover();
    await dropdown(page).getByRole("link", { name: dropdownLabels[6], exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${entry.to}$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(serviceOf(entry.to)!.title);
    await expect(dropdown(page)).toBeHidden();
    problems.expectNone();
  });

  test("axe: the open dropdown", noJsAt(1280), async ({ page, browser }, testInfo) => {
    await openPage(page, "/home");
    const openDropdown = async (p: Page) => {
      await servicesLink(p).focus();
      await expect(dropdown(p)).toBeVisible();
    };
    expect(
      await axeOnTwin(page, browser, testInfo, "open Services dropdown, no JavaScript", openDropdown),
      "axe violations",
    ).toEqual([]);
  });
});

test.describe("floating buttons without JavaScript", () => {
  test(
    "scroll-to-top is a link that shows past 300 px of scroll and brings the page to the top",
    noJsAt(375, 1280),
    async ({ page }) => {
      await openPage(page, "/services");
      const toTop = page.getByRole("link", { name: site.labels.scrollTop, includeHidden: true });
      const chat = page.getByRole("link", { name: site.messaging.label, includeHidden: true });
      await expect(toTop).toHaveAttribute("href", "#top");
      // At the top: scroll-to-top hidden, messaging visible (the spec's initial state).
      await expect(toTop).toBeHidden();
      await expect(chat).toBeVisible();

      await scrollTo(page, 301);
      await expect(toTop).toBeVisible();
      await expect(chat).toBeVisible();
      await scrollTo(page, 300);
      await expect(toTop).toBeHidden();
      await expect(chat, "scrolled, at 300 px: hidden, as the spec's table says").toBeHidden();

      await scrollTo(page, 2000);
      await toTop.click();
      await expect.poll(() => scrollY(page), { timeout: 5_000 }).toBe(0);
      await expect(page).toHaveURL(/\/services#top$/);
      await expect(toTop).toBeHidden();

      // From the keyboard as well.
      await scrollTo(page, 1500);
      // Shown by a scroll-driven animation on the next frame: a link still hidden cannot take focus.
      await expect(toTop).toBeVisible();
      await toTop.focus();
      await expect(toTop).toBeFocused();
      await page.keyboard.press("Enter");
      await expect.poll(() => scrollY(page), { timeout: 5_000 }).toBe(0);
    },
  );
});

test(
  "Why Cyrus without JavaScript: each description shows on hover and on keyboard focus, which claims no state and announces it",
  noJsAt(375, 1280),
  async ({ page }) => {
    await openPage(page, "/whycyrus");
    await expectDescriptionsRevealOnHoverAndFocus(page, { scripted: false });
  },
);
