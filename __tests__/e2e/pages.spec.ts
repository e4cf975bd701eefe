/**
 * Page interactions: every card on /services reaches its detail page and every detail page's Back
 * button returns to /services (each card at 375 or 1280 px, alternately); pages other than the detail pages (activities
 * among them) have no
 * Back button; the Why Cyrus descriptions stay hidden until hover or keyboard focus, and show exactly
 * while their card is announced as expanded; a page reached by a link inside the site (a plain link
 * from a page without scripts) is styled as when opened directly (every page inlines the whole
 * site's CSS: no stylesheet is fetched on the way).
 */
import { navigation, serviceOf, services, servicesPage, site } from "./support/content";

const cardRoutes = services.map((s) => `/services/${s.slug}`);
import type { Locator, Page } from "@playwright/test";
import { at, expect, open, sharedTabTest as test, width } from "./support/fixtures";
import { expectDescriptionsRevealOnHoverAndFocus, expectShownAsAnnounced } from "./support/why-cyrus";

/**
 * How every element in <main> is laid out and painted, as the browser computed it, once transitions
 * have ended (a card the pointer just left is still fading its hover shadow for 150 ms).
 */
function mainStyles(page: Page) {
  return page.locator("main").evaluate(async (main) => {
    // Those in <main>: scroll-to-top's scroll-driven animation (outside it, on pages without scripts)
    // never finishes.
    await Promise.all(
      main.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined)),
    );
    const props = [
      "display",
      "position",
      "width",
      "height",
      "padding",
      "font-size",
      "font-weight",
      "color",
      "background-color",
      "border-radius",
      "box-shadow",
      "grid-template-columns",
      "aspect-ratio",
    ];
    return [main, ...main.querySelectorAll("*")].map((el) => {
      const style = getComputedStyle(el);
      const left = Math.round(el.getBoundingClientRect().left);
      return `${el.tagName} x=${left} ${props.map((p) => style.getPropertyValue(p)).join("|")}`;
    });
  });
}

/** Follows a link inside the site and checks the page reached looks as when opened on its own. */
async function followAndCompare(page: Page, from: string, link: (page: Page) => Locator, to: string) {
  await open(page, from);
  // No page has a client-side router: every link loads the next document (speculation rules may have it ready).
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  const stylesheets: string[] = [];
  page.on("request", (request) => request.resourceType() === "stylesheet" && stylesheets.push(request.url()));
  await link(page).click();
  await expect(page).toHaveURL(new RegExp(`${to}$`));
  await expect(page.locator("main h1")).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument),
    "a plain link loaded the next document",
  ).toBe(undefined);
  expect(stylesheets, "no stylesheet is fetched: the first page brought the site's CSS").toEqual([]);
  await page.mouse.move(0, 0);
  const afterLink = await mainStyles(page);
  await open(page, to);
  await page.mouse.move(0, 0);
  expect(afterLink).toEqual(await mainStyles(page));
}

test("a page reached by a link inside the site is styled as when opened directly", at(375, 1280), async ({ page }) => {
  const firstCard = cardRoutes[0]!;
  await followAndCompare(
    page,
    firstCard,
    (p) => p.getByRole("main").getByRole("link", { name: site.labels.back, exact: true }),
    "/services",
  );
  await followAndCompare(
    page,
    "/services",
    (p) => p.getByRole("main").getByRole("link", { name: serviceOf(firstCard)!.cardTitle, exact: true }),
    firstCard,
  );
});

test(
  "every services card reaches its detail page, whose Back button returns to /services",
  at(375, 1280),
  async ({ page }) => {
    // Each card is followed at one width, alternately: both layouts of the grid are clicked through,
    // and every card once (each trip is two page loads; all of them at both widths took 90 s of CI).
    const followedHere = (i: number) => i % 2 === (width(page) === 375 ? 0 : 1);
    await open(page, "/services");
    const grid = page.getByRole("list").filter({ has: page.getByRole("heading", { level: 3 }) });
    const cards = grid.getByRole("link");
    await expect(cards).toHaveCount(cardRoutes.length);
    expect(await cards.evaluateAll((as) => as.map((a) => a.getAttribute("href"))), "cards in their `order`").toEqual(
      cardRoutes,
    );

    for (const [i, route] of cardRoutes.entries()) {
      if (!followedHere(i)) continue;
      const service = serviceOf(route)!;
      const card = cards.nth(i);
      await expect(card).toHaveText(service.cardTitle);
      await card.click();
      await expect(page).toHaveURL(new RegExp(`${route}$`));
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(service.title);

      const back = page.getByRole("main").getByRole("link", { name: site.labels.back, exact: true });
      await expect(back).toHaveCount(1);
      await expect(back).toHaveAttribute("href", "/services");
      await back.click();
      await expect(page).toHaveURL(/\/services$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(servicesPage.heading);
    }
  },
);

test("a card's whole area is its link's target", at(375, 1280), async ({ page }) => {
  await open(page, "/services");
  const card = page
    .locator("li")
    .filter({ has: page.getByRole("link", { name: serviceOf(cardRoutes[0]!)!.cardTitle, exact: true }) });
  // A click on the card's image, away from the title, still leads to the page.
  await card.click({ position: { x: 20, y: 20 } });
  await expect(page).toHaveURL(new RegExp(`${cardRoutes[0]}$`));
});

for (const route of navigation.main.map((item) => item.to)) {
  test(`${route} has no Back button`, at(1280), async ({ page }) => {
    await open(page, route);
    await expect(page.getByRole("link", { name: site.labels.back, exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: site.labels.back, exact: true })).toHaveCount(0);
  });
}

test(
  "Why Cyrus: each description is hidden until its card is hovered or focused with the keyboard, which expands it",
  at(375, 1280),
  async ({ page }) => {
    await open(page, "/whycyrus");
    await expectDescriptionsRevealOnHoverAndFocus(page, { scripted: true });
  },
);

test(
  "Why Cyrus: a card shows its description exactly while it is announced as expanded (focus, Enter, Space, click)",
  at(375, 1280),
  async ({ page }) => {
    await open(page, "/whycyrus");
    await expectShownAsAnnounced(page);
  },
);
