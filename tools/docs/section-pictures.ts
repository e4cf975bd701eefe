/**
 * The pictures of docs/images/sections/ (`npm run docs:section-pictures`): each kind of section of an
 * added page as a visitor sees it, for "Adding a page" in docs/editing-content.md and
 * docs/editing-studio.md. Run it again after a section's look changes, and commit the pictures.
 *
 * The page of data/pages/ with a section of every kind (the example the repository ships) is made
 * ready (`inProgress` removed) in a copy of the project, which is built for production and served on
 * loopback; Chromium then photographs each of its sections, found as the page renders them: the
 * sections of <main> after the one with the page's title, in the order of the YAML file. The header's
 * stickiness and the floating buttons are set aside for the pictures: they are the window's, not the
 * section's. A first question is opened, to show an answer too.
 */
import fs from "node:fs";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import sharp from "sharp";
import { everySectionPage } from "../../__tests__/support/added-pages";
import { makePageReady } from "../../__tests__/support/fixture-content";
import { copyProject, gatsbyToEnd, runGatsby, waitFor } from "../../__tests__/support/project-copy";
import { freePort, projectRoot } from "../../__tests__/support/serve";
import { chromePath, chromiumArgs } from "../chromium";
import { pictureFile, SECTION_PICTURES } from "./section-types";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 800 };
/** Each picture's most, for the repository: at one pixel per CSS pixel they are a tenth of it. */
const MAX_BYTES = 120_000;
const LIMIT_MS = 120_000;

/** Sets aside what is the window's rather than the page's: the sticky header, the floating buttons. */
const SET_ASIDE = `(() => {
  for (const el of document.querySelectorAll("body *")) {
    const position = getComputedStyle(el).position;
    if (position === "sticky") el.style.position = "static";
    if (position === "fixed") el.style.visibility = "hidden";
  }
})()`;

/** The page's sections after its title's, in order. */
async function sectionsOf(page: Page) {
  const all = page.locator("main > section");
  const count = await all.count();
  const titled = await all.evaluateAll((els) => els.findIndex((el) => el.querySelector("h1")));
  return Array.from({ length: count - titled - 1 }, (_, i) => all.nth(titled + 1 + i));
}

/** Photographs `section` once every picture in it has loaded (lazy ones load as it comes into view). */
async function photograph(section: ReturnType<Page["locator"]>, out: string): Promise<number> {
  await section.scrollIntoViewIfNeeded();
  await section.evaluate(
    (el, ms) =>
      Promise.race([
        Promise.all(
          [...el.querySelectorAll("img")]
            // Not a placeholder, nor a slide the slideshow hides: those never load in view.
            .filter((img) => img.getAttribute("aria-hidden") !== "true" && img.checkVisibility())
            .map((img) => img.decode().catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, ms)),
      ]),
    LIMIT_MS,
  );
  const shot = await section.screenshot({ animations: "disabled", timeout: LIMIT_MS });
  // At the size it was seen: a smaller copy blurs the text it shows.
  const webp = await sharp(shot).webp({ quality: 75 }).toBuffer();
  if (webp.length > MAX_BYTES) throw new Error(`${out}: ${webp.length} bytes, more than ${MAX_BYTES}`);
  fs.writeFileSync(path.join(projectRoot, out), webp);
  return webp.length;
}

async function main(): Promise<void> {
  const example = everySectionPage();
  const order = example.sections.map((s) => s.type);

  const root = copyProject("cyrus-section-pictures-");
  makePageReady(root, example.slug);
  console.log(`building a copy of the project with /${example.slug} ready (${root}) …`);
  const build = await gatsbyToEnd(root, ["build"], 900_000);
  if (build.code !== 0) throw new Error(`the copy's build failed:\n${build.output.slice(-4000)}`);
  console.log(`built in ${build.seconds.toFixed(0)} s`);

  const port = await freePort();
  const server = runGatsby(root, ["serve", "--host", "127.0.0.1", "--port", String(port)]);
  const url = `http://127.0.0.1:${port}/${example.slug}`;
  const browser = await chromium.launch({ executablePath: chromePath, args: [...chromiumArgs] });
  try {
    await waitFor(
      `gatsby serve to answer ${url}`,
      () =>
        fetch(url).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
      500,
    );
    fs.mkdirSync(path.join(projectRoot, SECTION_PICTURES), { recursive: true });
    // Reduced motion: the slideshow stays on its first slide.
    const context = await browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1, reducedMotion: "reduce" });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load" });
    await page.evaluate(SET_ASIDE);
    const sections = await sectionsOf(page);
    if (sections.length !== order.length)
      throw new Error(
        `/${example.slug} shows ${sections.length} sections after its title, its file has ${order.length}`,
      );
    const done = new Set<string>();
    for (const [i, type] of order.entries()) {
      if (done.has(type)) continue;
      done.add(type);
      if (type === "questions") await sections[i]!.locator("summary").first().click();
      const bytes = await photograph(sections[i]!, pictureFile(type));
      console.log(`${pictureFile(type)}: ${(bytes / 1024).toFixed(0)} KB`);
    }

    // One kind on a phone, where the picture goes above its text.
    await page.setViewportSize(PHONE);
    await page.evaluate(SET_ASIDE);
    const phoneFile = pictureFile("picture-with-text").replace(/\.webp$/, "-phone.webp");
    const bytes = await photograph(sections[order.indexOf("picture-with-text")]!, phoneFile);
    console.log(`${phoneFile}: ${(bytes / 1024).toFixed(0)} KB`);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
