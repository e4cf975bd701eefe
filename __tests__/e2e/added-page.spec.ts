/**
 * An added page with a section of every type, in the fixture site (one shared build of a copy of the
 * project in which that page is ready and the main menu names it: __tests__/support/fixture-site.ts),
 * served as the real site is (nginx, its Content-Security-Policy and the enquiry service under
 * `npm run test:e2e:nginx`; `gatsby serve` under `npm run test:e2e`), at E2E_FIXTURE_URL:
 *
 * - at every width, the menu's line on /home leads to it; opened at /<slug> it shows its title and
 *   every section as its YAML says, axe finds nothing, nothing sticks out sideways, and no console
 *   error or failed request (a CSP violation among them) happens;
 * - with JavaScript, the slideshow's pause button stops it and play resumes it, and a question opens
 *   its answer;
 * - without JavaScript, every section is there, a question's answer opens by its summary, and the
 *   slideshow shows its first slide;
 * - the page carries the slideshow's island (and it took over), and its copy without a slideshow (also in the
 *   fixture) runs and requests no script at all, its questions still opening.
 *
 * One page load per check where possible, every check of a width in one test (CI time).
 */
import type { Page, Request } from "@playwright/test";
import { addedPage, answer, expectSection, question, sectionOf, sections, slideshow } from "./support/added-page";
import { site } from "./support/content";
import { fixturePageWithoutSlideshow as copy } from "../support/fixture-content";
import {
  at,
  axe,
  everyViewport,
  expect,
  isHydrated,
  noJsAt,
  open,
  openWithoutScripts,
  pageScripts,
  test,
} from "./support/fixtures";
import { horizontalOverflow, leave } from "./support/page-checks";
import { nav } from "./support/shell";

const fixtureUrl = process.env.E2E_FIXTURE_URL;
test.skip(
  !fixtureUrl,
  "E2E_FIXTURE_URL is not set: the fixture site is missing or out of date (build it with `npx tsx tools/ensure-fixture-site.ts`; npm run test:e2e and test:e2e:nginx do)",
);
test.use({ baseURL: fixtureUrl });

const route = `/${addedPage.slug}`;
const main = (page: Page) => page.getByRole("main");

/**
 * Returns a wait for every request the page has made so far to end: a page left with requests
 * under way (the images a client-side navigation fetches) would cancel them, a failure `problems`
 * reports.
 */
function requestsUnderWay(page: Page) {
  const pending = new Set<Request>();
  page.on("request", (request) => pending.add(request));
  page.on("requestfinished", (request) => pending.delete(request));
  page.on("requestfailed", (request) => pending.delete(request));
  return () =>
    expect
      .poll(() => [...pending].map((request) => request.url()), {
        message: "every request of the page has ended",
        timeout: 15_000,
      })
      .toEqual([]);
}

async function expectEverySection(page: Page) {
  await expect(main(page).getByRole("heading", { level: 1 })).toHaveText(addedPage.title);
  for (const section of sections) await expectSection(main(page), section);
  expect(await horizontalOverflow(page), "elements sticking out sideways").toEqual([]);
}

/** Each question, clicked, shows its answer (a <details>: with or without scripts alike). */
async function openEveryQuestion(page: Page) {
  for (const item of sectionOf("questions").items!) {
    await question(main(page), item.question).click();
    await expect(answer(main(page), item)).toBeVisible();
  }
}

test(
  "the menu's line on /home leads to the page, which shows every section",
  everyViewport,
  async ({ page, problems }, testInfo) => {
    const allEnded = requestsUnderWay(page);
    await open(page, "/home");
    // The hamburger (its script-free <summary>, on every page), where the menu is folded (768 px and below).
    const hamburger = nav(page).locator("details > summary");
    if (await hamburger.isVisible()) await hamburger.click();
    await nav(page).getByRole("link", { name: addedPage.title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${route}$`));
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText(addedPage.title);
    await allEnded();

    await open(page, route);
    await expectEverySection(page);
    expect(await axe(page, testInfo, route), "axe violations").toEqual([]);
    problems.expectNone();
  },
);

test(
  "with JavaScript, the slideshow's pause button stops it and a question opens",
  at(1280),
  async ({ page, problems }) => {
    await open(page, route);
    const show = slideshow(main(page), sectionOf("slideshow").label!);
    const slides = show.locator("[aria-live]");
    await expect(slides, "rotating, the slides are not announced").toHaveAttribute("aria-live", "off");
    await show.getByRole("button", { name: site.labels.carouselPause }).click();
    const play = show.getByRole("button", { name: site.labels.carouselPlay });
    await expect(play).toBeVisible();
    // Away from the pointer and the focus, either of which holds it too: stopped by the button alone.
    await leave(page);
    await expect(slides, "stopped, a change of slide is announced").toHaveAttribute("aria-live", "polite");
    await play.click();
    await leave(page);
    await expect(slides, "rotating again").toHaveAttribute("aria-live", "off");

    await openEveryQuestion(page);
    problems.expectNone();
  },
);

test(
  "without JavaScript, every section is there, answers open and the slideshow shows its first slide",
  noJsAt(375, 1280),
  async ({ page, problems }) => {
    await openWithoutScripts(page, route);
    expect(await isHydrated(page), "no script ran").toBe(false);
    await expectEverySection(page);
    const { label, slides } = sectionOf("slideshow");
    await expect(slideshow(main(page), label!).getByRole("img", { name: slides![0]!.alt, exact: true })).toBeVisible();
    // Nothing turns without scripts: no pause button that would do nothing.
    await expect(slideshow(main(page), label!).getByRole("button")).toHaveCount(0);
    await openEveryQuestion(page);
    problems.expectNone();
  },
);

test(
  "the page with a slideshow loads its carousel's island alone; the copy without one runs and requests none",
  at(375, 1280),
  async ({ page, problems }) => {
    const requested: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "script") requested.push(request.url());
    });
    await open(page, route);
    expect(await isHydrated(page), "the carousel's island took over").toBe(true);
    expect(
      requested.map((url) => new URL(url).pathname),
      "the carousel's island, and no other script, was requested",
    ).toEqual([expect.stringMatching(/^\/islands\/carousel-[A-Z0-9]+\.js$/)]);

    requested.length = 0;
    await open(page, `/${copy.slug}`);
    await expect(main(page).getByRole("heading", { level: 1 })).toHaveText(copy.title);
    expect(await pageScripts(page), "scripts in the copy").toEqual([]);
    expect(requested, "scripts requested by the copy").toEqual([]);
    await expect(main(page).locator('[aria-roledescription="carousel"]')).toHaveCount(0);
    await openEveryQuestion(page);
    problems.expectNone();
  },
);
