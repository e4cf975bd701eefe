/**
 * An added page made in the studio is a page of the site: in the real studio against
 * decap-server, on a copy of data/, a new page with one section of every type (the schema's, as the
 * studio's config has them) is typed and its pictures uploaded through the media library, and the
 * YAML decap-server writes holds what was typed, the pictures named after the page and their field,
 * never after a section's place. One line of the menu names it; a field inside a section changes its
 * line alone; a slug another page of the site has is refused before anything is written. A build of
 * the copy with the studio's data/ then serves the page, with and without JavaScript.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { parse } from "yaml";
import { pageAddressTaken } from "../../../admin/src/refusals";
import { cmsCollections, type CmsField } from "../../../src/node/content/cms-config";
import { slugRefusal } from "../../../src/node/content/site-paths";
import { inspectContent } from "../../../src/node/content/validate";
import { everySectionPage, SECTION_TYPES } from "../../support/added-pages";
import { lineDiff } from "../../support/line-diff";
import { copyProject, gatsbyToEnd, plainText } from "../../support/project-copy";
import { projectRoot, serveBuiltSite } from "../../support/serve";
import { askToPublish, control, open as openIn, publish, studioForTests, test } from "./support/studio-session";

test.describe.configure({ mode: "serial" });

const session = studioForTests("studio-pages");
const open = (page: Page, entry: string) => openIn(page, session.studio, entry);

type Data = Record<string, unknown>;
const collection = cmsCollections(path.join(projectRoot, "data")).find((c) => c.name === "added-pages")!;
const folder = collection.folder!.replace(/^data\//, "");
const sectionsField = collection.fields!.find((f) => f.types)!;
/** The page the repository ships with a section of every type: its pictures are the uploads' files. */
const example = parse(
  fs.readFileSync(path.join(projectRoot, "data", folder, `${everySectionPage().slug}.yaml`), "utf8"),
) as Data;
/** A slug no page has, nor the example's. */
const slug = ["made-in-the-studio", "made-in-the-studio-2"].find(
  (s) => !fs.existsSync(path.join(projectRoot, "data", folder, `${s}.yaml`)),
)!;
const file = `${folder}/${slug}.yaml`;
const navFile = "navigation/navigation.yaml";
const menuLabel = "Made in the studio";

const hash = (at: string) => crypto.createHash("sha256").update(fs.readFileSync(at)).digest("hex");

/** Every file of the copy's data/ and its bytes. */
function snapshot(): Map<string, string> {
  const files = new Map<string, string>();
  const root = path.join(session.dir, "data");
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const at = path.join(entry.parentPath, entry.name);
      files.set(path.relative(root, at), fs.readFileSync(at).toString("base64"));
    }
  return files;
}

/** A field of `scope` by its own label (not one of a field inside it). */
const fieldIn = (scope: Locator, label: string) =>
  scope
    .locator("[aria-label$=' field']")
    .filter({
      has: scope.page().locator(":scope > div > label", { hasText: new RegExp(`^${label}( \\(optional\\))?$`) }),
    })
    .first();

/** A list's entries (each holds its bar and its fields), not those of lists inside them. */
const entriesOf = (list: Locator) => list.locator("xpath=./div/div/div[./*[contains(@class, 'ListItemTopBar')]]");

/**
 * The example's pictures for a field, in its order (the banner's, a kind of section's: its slides, its
 * cards' pictures); the n-th, else its last (the example's second card has none: the first one again).
 */
function source(kind: string, name: string, n: number): string {
  const found: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object")
      for (const [key, item] of Object.entries(value))
        if (key === name && typeof item === "string") found.push(item);
        else visit(item);
  };
  visit(kind ? (example.sections as Data[]).find((s) => s.type === kind) : { [name]: example[name] });
  return path.join(projectRoot, "data", folder, found[n - 1] ?? found.at(-1)!);
}

/** Uploads a file into an image field through Decap's media library, as an editor does. */
async function upload(field: Locator, picture: string): Promise<void> {
  await field.getByRole("button", { name: /^Choose (an|different) image$/ }).click();
  await field.page().locator("input[type=file]").setInputFiles(picture);
  await field.page().getByRole("button", { name: "Choose selected" }).click();
  await expect(field.locator("img")).toBeVisible();
}

/** Each picture uploaded (its file) and the name the page gives it, images/<name>. */
const uploads = new Map<string, string>();
const named = new Map<string, number>();

/**
 * The name the studio gives an upload: its field's pattern, numbered among that field's pictures (never
 * by its section's place); the same file uploaded again is the one file, under its first name.
 */
function expectedName(pattern: string, picture: string): string {
  const n = (named.get(pattern) ?? 0) + 1;
  if (!uploads.has(picture)) {
    named.set(pattern, n);
    uploads.set(picture, `images/${pattern.replace("{{slug}}", slug).replace("{{n}}", String(n))}.jpg`);
  }
  return uploads.get(picture)!;
}

/**
 * Fills every text of `fields` and each picture, two entries per list, the last option of a choice,
 * as an editor types them; returns what was typed.
 */
async function fill(scope: Locator, fields: readonly CmsField[], words: string, kind = "", n = 1): Promise<Data> {
  const data: Data = {};
  for (const field of fields) {
    const at = fieldIn(scope, field.label);
    const text = `${words} ${field.label.toLowerCase()}`;
    // A string with a pattern is an address of the site (a card's link, a button's): the page's own.
    if (field.widget === "string")
      await at.locator("input").fill((data[field.name] = field.pattern ? `/${slug}` : text));
    else if (field.widget === "text") await at.locator("textarea").fill((data[field.name] = text));
    else if (field.widget === "markdown") {
      await at.locator("[contenteditable=true]").click();
      await scope.page().keyboard.type((data[field.name] = `${text}, typed in the studio.`));
    } else if (field.widget === "select") {
      const option = String(field.options!.at(-1));
      const input = at.locator("input").first();
      const choice = scope.page().getByRole("option", { name: option, exact: true });
      // From the keyboard, as a click at the input's place could land elsewhere while the form above
      // still grows (a picture's upload message); again if the list did not open.
      await expect(async () => {
        await input.press("ArrowDown");
        await expect(choice).toBeVisible({ timeout: 2000 });
      }).toPass({ timeout: 15_000 });
      await choice.click();
      data[field.name] = option;
    } else if (field.widget === "image") {
      const picture = source(kind, field.name, n);
      await upload(at, picture);
      data[field.name] = expectedName(field.upload_name!, picture);
    } else if (field.widget === "boolean") {
      // Left as it is: the studio writes its default.
      data[field.name] = field.default;
    } else if (field.widget === "list" && field.fields) {
      const items: Data[] = [];
      for (const n of [1, 2]) {
        await at.getByRole("button", { name: `Add ${field.label_singular!.toLowerCase()}` }).click();
        const entry = entriesOf(at).nth(n - 1);
        items.push(await fill(entry, field.fields, `${words} ${field.label_singular!.toLowerCase()} ${n}`, kind, n));
      }
      data[field.name] = items;
    }
  }
  return data;
}

/** Adds a section of a kind at the end of the page (Decap's Add menu), unfolded. */
async function addSection(page: Page, kind: CmsField): Promise<void> {
  await control(page, sectionsField.label)
    .getByRole("button", { name: `Add ${sectionsField.label_singular!.toLowerCase()}` })
    .click();
  await page.getByRole("menuitem", { name: kind.label, exact: true }).click();
}

test("a new page with a section of every type: the YAML holds what was typed, its pictures named after it", async ({
  page,
}) => {
  // The studio offers each kind of section the schema has (and the tests' list names).
  expect(sectionsField.types!.map((k) => k.name).sort()).toEqual([...SECTION_TYPES].sort());
  const images = path.join(session.dir, "data", folder, "images");
  const before = new Set(fs.readdirSync(images));
  await open(page, `${collection.name}/new`);
  const form = page.locator("body");
  // The slug first: the pictures are named after it.
  await fieldIn(form, "Slug").locator("input").fill(slug);
  const top = collection.fields!.filter((f) => !["slug", sectionsField.name].includes(f.name));
  const expected: Data = { slug, ...(await fill(form, top, "Page")) };
  const sections = control(page, sectionsField.label);
  const typed: Data[] = [];
  // In the schema's order backwards: a picture's name must not follow its section's place.
  for (const type of [...SECTION_TYPES].reverse()) {
    const kind = sectionsField.types!.find((k) => k.name === type)!;
    await addSection(page, kind);
    const entry = entriesOf(sections).last();
    typed.push({ type, ...(await fill(entry, kind.fields!, kind.label, type)) });
  }
  expected[sectionsField.name] = typed;
  await publish(page);
  await expect.poll(() => fs.existsSync(path.join(session.dir, "data", file))).toBe(true);
  expect(parse(session.readText(file))).toEqual(expected);
  // Each picture is the file uploaded for it, byte for byte, and nothing else was added; the content
  // check finds nothing wrong.
  for (const [picture, value] of uploads)
    expect({ value, bytes: hash(path.join(session.dir, "data", folder, value)) }).toEqual({
      value,
      bytes: hash(picture),
    });
  const added = fs.readdirSync(images).filter((name) => !before.has(name));
  expect(added.map((name) => `images/${name}`).sort()).toEqual([...uploads.values()].sort());
  expect(inspectContent(path.join(session.dir, "data")).problems).toEqual([]);
});

test("one line of the menu names the page: the diff is that entry's lines alone", async ({ page }) => {
  const before = session.readText(navFile);
  const nav = parse(before) as { main: Data[] };
  await open(page, "site/entries/navigation");
  const main = fieldIn(page.locator("body"), "Main");
  await main.getByRole("button", { name: /^Add link/ }).click();
  const entry = entriesOf(main).last();
  await fieldIn(entry, "Label").locator("input").fill(menuLabel);
  await fieldIn(entry, "To").locator("input").fill(`/${slug}`);
  await publish(page);
  await expect.poll(() => session.readText(navFile)).not.toBe(before);
  const after = session.readText(navFile);
  expect(parse(after)).toEqual({ ...nav, main: [...nav.main, { label: menuLabel, to: `/${slug}` }] });
  // Its two lines, one after the other, and nothing else, quoted as the menu's other lines are.
  const diff = lineDiff(before, after);
  expect(diff.removed).toEqual([]);
  expect(diff.added).toEqual([diff.added[0], diff.added[0]! + 1]);
  expect(diff.lines).toEqual([`+  - label: "${menuLabel}"`, `+    to: "/${slug}"`]);
});

test("a field inside a section: the diff is its line alone", async ({ page }) => {
  const before = session.readText(file);
  // The first kind of section holding a list of entries (the cards): the first text of its first entry.
  const kind = sectionsField.types!.find((k) => k.fields!.some((f) => f.widget === "list" && f.fields))!;
  const list = kind.fields!.find((f) => f.widget === "list")!;
  const text = list.fields!.find((f) => f.widget === "string")!;
  await open(page, `${collection.name}/entries/${slug}`);
  const section = entriesOf(control(page, sectionsField.label)).filter({
    has: page.locator(":scope > label", { hasText: new RegExp(`^${kind.label}\\s*$`) }),
  });
  await section.locator("[class*=ListItemTopBar] button").first().click();
  const entry = entriesOf(fieldIn(section, list.label)).first();
  await entry.locator("[class*=ListItemTopBar] button").first().click();
  const input = fieldIn(entry, text.label).locator("input");
  const old = await input.inputValue();
  await input.fill(`${old} (edited)`);
  await publish(page);
  await expect.poll(() => session.readText(file)).not.toBe(before);
  const line = before.split("\n").find((l) => l.endsWith(`${text.name}: ${old}`))!;
  expect(lineDiff(before, session.readText(file)).lines).toEqual([`-${line}`, `+${line} (edited)`]);
});

test("a slug that is another page's address is refused before saving, in the check's words", async ({ page }) => {
  // The menu's links: the first whose address the site has already (a fixed page's).
  const nav = parse(session.readText(navFile)) as { main: Array<{ to: string }> };
  const taken = nav.main.map((m) => m.to.slice(1)).find((s) => slugRefusal(s))!;
  const before = snapshot();
  const saves: string[] = [];
  page.on("request", (r) => {
    if (/"persist\w+"/.test(r.postData() ?? "")) saves.push(r.postData()!.slice(0, 80));
  });
  await open(page, `${collection.name}/new`);
  const form = page.locator("body");
  await fieldIn(form, "Slug").locator("input").fill(taken);
  // What else a page needs: its title and description, a section.
  const needed = collection.fields!.filter((f) => ["title", "description"].includes(f.name));
  await fill(form, needed, "Clash");
  await addSection(
    page,
    sectionsField.types!.find((k) => k.name === SECTION_TYPES.at(-1))!,
  );
  await askToPublish(page);
  // Decap checks the fields before it saves anything: the refusal shown, the save never asked for.
  await expect(fieldIn(form, "Slug").getByText(pageAddressTaken(taken)!, { exact: true })).toBeVisible();
  await expect(page.getByText("Entry saved")).toHaveCount(0);
  expect(saves).toEqual([]);
  expect(snapshot()).toEqual(before);
});

/** The words and alt texts a section's YAML holds (not its type, choices or picture paths). */
const texts = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(texts)
    : value && typeof value === "object"
      ? Object.entries(value).flatMap(([key, item]) =>
          key === "type" || key === "side" || (typeof item === "string" && /^images\//.test(item)) ? [] : texts(item),
        )
      : typeof value === "string"
        ? [value]
        : [];

test("a build of the studio's data/ serves the page, its menu link and its sitemap entry, with and without JavaScript", async ({
  browser,
}) => {
  // A production build of the whole site (its pictures too): a bound, not a measure.
  test.setTimeout(600_000);
  const root = copyProject("cyrus-studio-pages-build-");
  try {
    fs.rmSync(path.join(root, "data"), { recursive: true });
    fs.cpSync(path.join(session.dir, "data"), path.join(root, "data"), { recursive: true });
    const build = await gatsbyToEnd(root, ["build"], 540_000);
    test.info().annotations.push({ type: "figures", description: `gatsby build: ${Math.round(build.seconds)} s` });
    expect({ code: build.code, errors: plainText(build.output).match(/ERROR.{0,400}/g) }).toEqual({
      code: 0,
      errors: null,
    });
    const saved = parse(session.readText(file)) as { title: string; sections: Data[] };
    const sitemaps = fs.readdirSync(path.join(root, "public")).filter((f) => /^sitemap-\d+\.xml$/.test(f));
    expect(sitemaps.map((f) => fs.readFileSync(path.join(root, "public", f), "utf8")).join("")).toContain(
      `/${slug}</loc>`,
    );
    const site = await serveBuiltSite({}, root);
    try {
      for (const javaScriptEnabled of [true, false]) {
        const context = await browser.newContext({ javaScriptEnabled });
        const page = await context.newPage();
        await page.goto(`${site.origin}/home`);
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: menuLabel }).click();
        await expect(page).toHaveURL(`${site.origin}/${slug}`);
        await expect(page.getByRole("heading", { level: 1 })).toHaveText(saved.title);
        // Every section: its headings shown, each of its texts in the page (an answer folded, a slide's alt).
        const main = page.getByRole("main");
        const html = await main.innerHTML();
        for (const section of saved.sections) {
          if (typeof section.heading === "string")
            await expect(main.getByRole("heading", { name: section.heading })).toBeVisible();
          const missing = texts(section).filter((text) => !html.includes(text));
          expect({ javaScriptEnabled, type: section.type, missing }).toEqual({
            javaScriptEnabled,
            type: section.type,
            missing: [],
          });
        }
        await context.close();
      }
    } finally {
      await site.stop();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
