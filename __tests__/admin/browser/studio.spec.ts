/**
 * An editor's session in the real studio against decap-server, on a copy of data/: change a field
 * and see the preview follow, add, remove and reorder list entries, upload an image, publish; then the
 * saved YAML holds the change and `npm run check:content`'s check passes on the copy. And every kind
 * of page opens with its preview (the real view, its images from the working copy), not Decap's error.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import sharp from "sharp";
import { parse } from "yaml";
import { cmsCollections } from "../../../src/node/content/cms-config";
import { inspectContent } from "../../../src/node/content/validate";
import { projectRoot } from "../../support/serve";
import { control, entryBar, open as openIn, publish, studioForTests, test } from "./support/studio-session";

const session = studioForTests("studio");
const violations: string[] = [];

const readYaml = (file: string) => parse(session.readText(file)) as Record<string, unknown>;

const watched = new WeakSet<Page>();

/** Opens an entry of the studio (signed in), noting any Content-Security-Policy violation on the way. */
async function open(page: Page, entry: string): Promise<void> {
  if (!watched.has(page))
    page.on("console", (m) => {
      if (/Content[- ]Security[- ]Policy/i.test(m.text())) violations.push(m.text());
    });
  watched.add(page);
  await openIn(page, session.studio, entry);
}

/**
 * Drags a list entry by its handle onto another entry's place, as an editor does with the mouse
 * (Decap's lists reorder by pointer only: dnd-kit's mouse and touch sensors, past 4 px of movement).
 * `thenClick`: clicked the moment the entry is dropped, with no wait of any kind between, as an editor
 * who goes straight on to the next button does.
 */
async function dragEntry(
  page: Page,
  list: ReturnType<typeof control>,
  from: number,
  to: number,
  thenClick?: Locator,
): Promise<void> {
  // The ☰ handle (its icon): out of the Tab order and unnamed, as only the mouse and touch drag it.
  const handle = entryBar(list, from).locator("[class*=DragIconContainer]");
  await handle.scrollIntoViewIfNeeded();
  const source = await handle.boundingBox();
  const target = await entryBar(list, to).boundingBox();
  if (!source || !target) throw new Error("a list entry to drag is not on screen");
  const next = thenClick ? await thenClick.boundingBox() : null;
  if (thenClick && !next) throw new Error("the button to click after the drop is not on screen");
  const x = source.x + source.width / 2;
  await page.mouse.move(x, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(x, target.y + target.height / 2, { steps: 12 });
  await page.mouse.move(x, target.y + target.height / 2 - 2, { steps: 2 });
  await page.mouse.up();
  if (next) await page.mouse.click(next.x + next.width / 2, next.y + next.height / 2);
}

test("edit a page: a field (the preview follows), a list entry, an image; publish; the check passes", async ({
  page,
}) => {
  const before = readYaml("about/about.yaml");
  await open(page, "pages/entries/about");
  const preview = page.frameLocator("iframe").first();
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(String(before.heading));

  const heading = "About Cyrus, edited in the studio";
  await control(page, "Heading").locator("input").fill(heading);
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(heading);

  const paragraph = "A paragraph added in the editing studio.";
  const intro = control(page, "Intro");
  await intro.getByRole("button", { name: "Add paragraph" }).click();
  await intro.locator("textarea").last().fill(paragraph);
  await expect(preview.getByText(paragraph)).toBeVisible();

  const upload = path.join(session.dir, "studio-banner.jpg");
  await sharp({ create: { width: 2400, height: 800, channels: 3, background: "#1e5a78" } })
    .jpeg()
    .toFile(upload);
  await control(page, "Banner").getByRole("button", { name: "Choose different image" }).click();
  await page.locator("input[type=file]").setInputFiles(upload);
  await page.getByRole("button", { name: "Choose selected" }).click();
  await expect(preview.locator("img").first()).toHaveAttribute("src", /^blob:/);

  await publish(page);

  const saved = readYaml("about/about.yaml");
  expect(saved.heading).toBe(heading);
  expect(saved.intro).toEqual([...(before.intro as string[]), paragraph]);
  // Saved under the field's name, as the page's pictures are, not the file's (admin/src/upload-name.ts);
  // beside the banner it replaces, never over it.
  const named = /^(?:\.\/)?images\/(banner(?:-\d+)?\.jpg)$/.exec(String(saved.banner))?.[1];
  expect(named).toBeDefined();
  expect(named).not.toBe(path.basename(String(before.banner)));
  expect(fs.existsSync(path.join(session.dir, "data/about/images", named!))).toBe(true);
  expect(fs.existsSync(path.join(session.dir, "data/about", String(before.banner)))).toBe(true);
  expect(saved.mission).toEqual(before.mission);
  expect(inspectContent(path.join(session.dir, "data")).problems).toEqual([]);
  expect(violations).toEqual([]);
});

test("edit a service: a field, remove a list entry, reorder sections; publish; the check passes", async ({ page }) => {
  const slug = "quality-assurance";
  const before = readYaml(`services/${slug}.yaml`);
  await open(page, `services/entries/${slug}`);
  const preview = page.frameLocator("iframe").first();
  await expect(preview.getByRole("heading", { level: 1 })).toHaveText(String(before.title));

  const label = "Quality Assurance (edited)";
  await control(page, "Menu label").locator("input").fill(label);
  const intro = control(page, "Intro");
  const [kept, removed] = before.intro as string[];
  await expect(preview.getByText(removed!)).toBeVisible();
  await entryBar(intro, 1).locator("button").last().click();
  await expect(preview.getByText(removed!)).toHaveCount(0);

  const headings = (before.sections as { heading: string }[]).map((section) => section.heading);
  const [first, second, ...rest] = headings;
  const reordered = [second!, first!, ...rest];
  await expect(preview.getByRole("heading", { level: 2 })).toHaveText(headings);
  // Publish, clicked the moment the section is dropped, opens its menu: dnd-kit stopped every click
  // for 50 ms or more after a drop, this one too (admin/scripts/patch-dnd-kit.ts).
  await dragEntry(page, control(page, "Sections"), 1, 0, page.getByRole("button", { name: "Publish" }).first());
  const publishNow = page.getByText("Publish now", { exact: true }).filter({ visible: true }).first();
  await expect(publishNow).toBeVisible();
  await expect(preview.getByRole("heading", { level: 2 })).toHaveText(reordered);
  await publishNow.click();
  await expect(page.getByText("Entry saved")).toBeVisible();
  const service = readYaml(`services/${slug}.yaml`);
  expect(service).toMatchObject({ slug, menuLabel: label, intro: [kept] });
  const sections = before.sections as unknown[];
  expect(service.sections).toEqual([sections[1], sections[0], ...sections.slice(2)]);

  expect(inspectContent(path.join(session.dir, "data")).problems).toEqual([]);
  expect(violations).toEqual([]);
});

/**
 * Each page file with a page heading, the first service and approval, and a service showing approvals
 * (its badges come from the other collection's images): what data/ holds today. Listed from the
 * project's data/ (the copy has the same files); each is read from the copy when its test runs.
 */
function previewEntries(): Array<{ entry: string; file: string }> {
  const data = path.join(projectRoot, "data");
  const read = (file: string) => parse(fs.readFileSync(path.join(data, file), "utf8")) as Record<string, unknown>;
  const collections = cmsCollections(data);
  const entries = collections
    .find((c) => c.name === "pages")!
    .files!.map((f) => ({ entry: `pages/entries/${f.name}`, file: f.file.replace(/^data\//, "") }))
    .filter(({ file }) => typeof read(file).heading === "string");
  for (const name of ["services", "approvals", "added-pages"]) {
    const folder = collections.find((c) => c.name === name)!.folder!.replace(/^data\//, "");
    const files = fs.readdirSync(path.join(data, folder)).filter((f) => f.endsWith(".yaml"));
    const withGallery = files.find((f) => (read(`${folder}/${f}`).gallery as unknown[] | undefined)?.length);
    for (const file of new Set([files[0]!, ...(withGallery ? [withGallery] : [])]))
      entries.push({ entry: `${name}/entries/${file.replace(/\.yaml$/, "")}`, file: `${folder}/${file}` });
  }
  return entries;
}

const entries = previewEntries();

test("every kind of page is previewed", () => {
  expect(entries.length).toBeGreaterThanOrEqual(8);
});

// One test each, so that each page has its own bound (ten in one test took 2 minutes on a loaded
// machine), in one signed-in page, as an editor goes from one to the next.
test.describe("previews", () => {
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    page = await browser.newPage();
  });
  test.afterAll(async () => {
    await page?.close();
  });
  for (const { entry, file } of entries) {
    test(`${entry} has a live preview of its real view, with the working copy's images`, async () => {
      await open(page, entry);
      const data = readYaml(file);
      const preview = page.frameLocator("iframe").first();
      if (typeof data.caption === "string")
        await expect(preview.getByText(data.caption, { exact: true })).toBeVisible();
      // (The enquiry results' preview shows its three pages, each under the same heading.)
      else
        await expect(preview.getByRole("heading", { level: 1 }).first()).toHaveText(String(data.heading ?? data.title));
      // Its images come from the working copy through the local backend, and every one of them loads.
      if (/\.(jpe?g|png|webp|avif)"/.test(JSON.stringify(data))) {
        const images = preview.locator("img");
        await expect(images.first(), entry).toBeVisible();
        const broken = await images.evaluateAll((imgs) =>
          (imgs as HTMLImageElement[]).filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src),
        );
        expect(broken, entry).toEqual([]);
      }
      expect(violations).toEqual([]);
    });
  }
});
