/**
 * Pictures never cross pages: in the real studio against decap-server, on a copy of data/, a picture
 * uploaded, to an existing service or a new one, under another service's banner file name is saved
 * under a name of its own (no window.confirm to replace, every picture of the folder byte for byte
 * the same, a note saying both were kept), the entry's (<slug>-banner.jpg, as the others are), even
 * when chosen before a new service's slug was typed; a picture narrower than its place, uploaded or saved, is
 * warned about beside the field, by the content check's own rule; and Delete in the picture library
 * keeps a picture another service shows, and on the Media page one the site's settings show, saying so
 * before Decap asks whether to delete it (and that it is checking, meanwhile). Every
 * image field (a service's, About's, Home's) shows the picture its YAML names, from the file itself,
 * and the file's name, after a reload and after a publish. The entries, their image fields and their
 * file names are read from the copy of data/ and the schemas. */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import sharp from "sharp";
import { parse } from "yaml";
import { cmsCollections, type CmsField } from "../../../src/node/content/cms-config";
import { narrowImageWarning } from "../../../src/node/content/image-width-rule";
import { inspectContent } from "../../../src/node/content/validate";
import { projectRoot } from "../../support/serve";
import { control, holdServer, open as openIn, publish, studioForTests, test } from "./support/studio-session";

const session = studioForTests("studio-images");
const open = (page: Page, entry: string) => openIn(page, session.studio, entry);
const dataPath = (...parts: string[]) => path.join(session.dir, "data", ...parts);
const hash = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

interface Service {
  slug: string;
  banner: string;
  [field: string]: unknown;
}

/** The services of the copy, as saved, and the field that names each for people (the list's summary). */
function services(): {
  list: Service[];
  label: (s: Service) => string;
  bannerField: { label: string; min: number };
  fields: CmsField[];
  /** The name the studio gives a field's upload for an entry (its upload_name, from the schema). */
  nameFor: (field: string, slug: string) => string;
} {
  const collection = cmsCollections(path.join(projectRoot, "data")).find((c) => c.name === "services")!;
  const folder = dataPath(collection.folder!.replace(/^data\//, ""));
  const list = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => parse(fs.readFileSync(path.join(folder, f), "utf8")) as Service);
  const summary = /\{\{fields\.(\w+)/.exec(collection.summary!)![1]!;
  const banner = collection.fields!.find((f) => f.name === "banner")!;
  const nameFor = (field: string, slug: string) =>
    collection.fields!.find((f) => f.name === field)!.upload_name!.replace("{{slug}}", slug);
  return {
    list,
    label: (s) => String(s[summary]),
    bannerField: { label: banner.label, min: banner.min_width! },
    fields: collection.fields!,
    nameFor,
  };
}

/** Uploads a file into an image field through Decap's media library, as an editor does. */
async function upload(page: Page, label: string, file: string): Promise<void> {
  await control(page, label)
    .getByRole("button", { name: /^Choose (an|different) image$/ })
    .click();
  await page.locator("input[type=file]").setInputFiles(file);
  await page.getByRole("button", { name: "Choose selected" }).click();
}

/** Every window.alert/confirm/prompt the page opens (none is expected: each is dismissed). */
function dialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on("dialog", (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return seen;
}

/** Every image field of an entry, in the form's order, with the value its YAML gives it (lists unfolded). */
function pictureValues(fields: readonly CmsField[], data: unknown): Array<{ label: string; value: unknown }> {
  const values = (data ?? {}) as Record<string, unknown>;
  return fields.flatMap((field) => {
    const value = values[field.name];
    if (field.widget === "image") return [{ label: field.label, value }];
    if (field.widget === "object") return pictureValues(field.fields!, value);
    if (field.widget !== "list" || !Array.isArray(value)) return [];
    return value.flatMap((item) =>
      field.fields ? pictureValues(field.fields, item) : pictureValues([field.field!], { [field.field!.name]: item }),
    );
  });
}

/**
 * Each image field of the open entry shows a loaded thumbnail made of the very file its YAML names (the
 * bytes the thumbnail was loaded from are the file's, in the session's copy), and that file's name.
 */
async function expectPictures(page: Page, yamlFile: string, fields: readonly CmsField[]): Promise<void> {
  const wanted = pictureValues(fields, parse(fs.readFileSync(yamlFile, "utf8")));
  expect(wanted.filter((w) => typeof w.value === "string").length).toBeGreaterThan(0);
  // Decap names each control after its widget: the image fields, in the form's order.
  const controls = page.locator("[aria-label='image field']");
  await expect(controls).toHaveCount(wanted.length);
  for (const [index, { label, value }] of wanted.entries()) {
    if (typeof value !== "string" || !value) continue;
    const field = controls.nth(index);
    // A folded list entry (Home's slides) hides its fields: unfold it, as an editor would to see them.
    if (!(await field.isVisible()))
      await field
        .locator("xpath=ancestor::*[./*[contains(@class, 'ListItemTopBar')]][1]/*[contains(@class, 'ListItemTopBar')]")
        .locator("button")
        .first()
        .click();
    await expect(field).toBeVisible();
    await expect(field.locator("label").first()).toHaveText(new RegExp(`^${label}( \\(optional\\))?$`));
    const shown = () =>
      field
        .locator("img")
        .first()
        .evaluate(async (img: HTMLImageElement) => {
          if (!img.complete || img.naturalWidth === 0) return { loaded: false, digest: "" };
          const bytes = await (await fetch(img.currentSrc)).arrayBuffer();
          const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", bytes));
          return { loaded: true, digest: Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("") };
        })
        .catch(() => ({ loaded: false, digest: "" }));
    await expect
      .poll(shown, { message: `${label}: the thumbnail of ${value}` })
      .toEqual({ loaded: true, digest: hash(path.resolve(path.dirname(yamlFile), value)) });
    await expect(field.getByText(path.posix.basename(value), { exact: true })).toBeVisible();
  }
}

test("a picture named like another service's banner is kept beside it, not in its place", async ({ page }) => {
  const { list, label, bannerField, fields } = services();
  const [edited, other] = list.filter((s) => s.banner);
  const otherFile = dataPath("services", other!.banner);
  const imagesDir = path.dirname(otherFile);
  const before = new Map(fs.readdirSync(imagesDir).map((name) => [name, hash(path.join(imagesDir, name))]));

  // The editor's file has the other service's banner's name, and is a picture wide enough for a banner.
  const uploads = fs.mkdtempSync(path.join(session.dir, "uploads-"));
  const clash = path.basename(other!.banner);
  const file = path.join(uploads, clash);
  await sharp({ create: { width: bannerField.min, height: bannerField.min / 3, channels: 3, background: "#7a2e4d" } })
    .jpeg()
    .toFile(file);

  const seen = dialogs(page);
  await open(page, `services/entries/${edited!.slug}`);
  await upload(page, bannerField.label, file);

  const field = control(page, bannerField.label);
  const note = field.locator(".studio-picture-note");
  await expect(note).toBeVisible();
  await expect(note).toContainText(`A picture named ${clash} already exists (used by ${label(other!)}`);
  await expect(note).toContainText("Both are kept.");
  // Wide enough: no warning.
  await expect(field.locator(".studio-picture-warning")).toHaveCount(0);

  const yamlFile = dataPath("services", `${edited!.slug}.yaml`);
  const yamlBefore = fs.readFileSync(yamlFile, "utf8");
  await publish(page);
  await expect.poll(() => fs.readFileSync(yamlFile, "utf8")).not.toBe(yamlBefore);

  // The entry names a new file, which holds the upload; the note named it.
  const banner = String((parse(fs.readFileSync(yamlFile, "utf8")) as Service).banner);
  const saved = path.basename(banner);
  expect(before.has(saved)).toBe(false);
  expect(fs.existsSync(dataPath("services", banner))).toBe(true);
  expect(hash(dataPath("services", banner))).toBe(hash(file));
  await expect(note).toContainText(`this one was saved as ${saved}.`);
  // Published: every picture field still shows its file (the new one too) and its name.
  await expectPictures(page, yamlFile, fields);
  // The other service's banner, and every other picture of the folder, byte for byte as before.
  expect(hash(otherFile)).toBe(before.get(clash));
  for (const [name, digest] of before)
    expect({ name, digest: hash(path.join(imagesDir, name)) }).toEqual({ name, digest });
  expect(seen).toEqual([]);
  // The content check accepts the new name (and the rest of the copy).
  expect(inspectContent(dataPath()).problems).toEqual([]);
});

test("a new service's pictures get its own names, after its slug, even the banner chosen before the slug", async ({
  page,
}) => {
  const { list, label, bannerField, nameFor } = services();
  const other = list.find((s) => s.banner)!;
  const otherFile = dataPath("services", other.banner);
  const imagesDir = path.dirname(otherFile);
  const before = new Map(fs.readdirSync(imagesDir).map((name) => [name, hash(path.join(imagesDir, name))]));
  const slugs = new Set(list.map((s) => s.slug));
  const slug = ["studio-images-new", "studio-images-new-2"].find((s) => !slugs.has(s))!;
  const order = Math.max(...list.map((s) => Number(s.order))) + 5;

  const uploads = fs.mkdtempSync(path.join(session.dir, "uploads-"));
  const banner = path.join(uploads, path.basename(other.banner));
  await sharp({ create: { width: bannerField.min, height: bannerField.min / 3, channels: 3, background: "#4d2e7a" } })
    .jpeg()
    .toFile(banner);
  const card = path.join(uploads, "card.jpg");
  await sharp({ create: { width: 960, height: 640, channels: 3, background: "#2e4d7a" } })
    .jpeg()
    .toFile(card);

  const seen = dialogs(page);
  await open(page, "services/new");
  // The banner first, before the slug is typed, under another service's banner's name: kept apart.
  await upload(page, bannerField.label, banner);
  const note = control(page, bannerField.label).locator(".studio-picture-note");
  await expect(note).toContainText(
    `A picture named ${path.basename(other.banner)} already exists (used by ${label(other)}); this one was saved as`,
  );
  await control(page, "Slug").locator("input").fill(slug);
  await control(page, "Order").locator("input").fill(String(order));
  for (const name of ["Menu label", "Card title", "Title", "Meta title", "Banner alt", "Card image alt"])
    await control(page, name).locator("input").fill(`Studio images ${name.toLowerCase()}`);
  await control(page, "Description").locator("textarea").fill("A service made by the studio's picture test.");
  const intro = control(page, "Intro");
  await intro.getByRole("button", { name: "Add paragraph" }).click();
  await intro.locator("textarea").last().fill("A paragraph of the new service.");
  // The card after the slug.
  await upload(page, "Card image", card);

  await publish(page);
  const yamlFile = dataPath("services", `${slug}.yaml`);
  await expect.poll(() => fs.existsSync(yamlFile)).toBe(true);

  // The new entry names files named after its slug, as the other services' are, which hold the uploads.
  const saved = parse(fs.readFileSync(yamlFile, "utf8")) as Service;
  const names = { banner: `${nameFor("banner", slug)}.jpg`, card: `${nameFor("cardImage", slug)}.jpg` };
  expect(names.card).toBe(`${slug}-card.jpg`);
  expect([saved.banner, saved.cardImage].map((v) => /^(?:\.\/)?images\/([^/]+)$/.exec(String(v))?.[1])).toEqual([
    names.banner,
    names.card,
  ]);
  await expect(note).toContainText(`this one was saved as ${names.banner}.`);
  for (const [value, upload] of [
    [saved.banner, banner],
    [String(saved.cardImage), card],
  ]) {
    expect(before.has(path.basename(value!))).toBe(false);
    expect(hash(dataPath("services", value!))).toBe(hash(upload!));
  }
  // Every picture that was there, the other service's banner too, byte for byte as before; no other new file.
  for (const [name, digest] of before)
    expect({ name, digest: hash(path.join(imagesDir, name)) }).toEqual({ name, digest });
  expect(
    fs
      .readdirSync(imagesDir)
      .filter((name) => !before.has(name))
      .sort(),
  ).toEqual([names.banner, names.card].sort());
  expect(seen).toEqual([]);
  // The check finds nothing wrong with the new file (it is not in the Services menu yet: that is the menu's).
  const report = inspectContent(dataPath());
  expect(report.problems.filter((p) => p.file.endsWith(`/${slug}.yaml`))).toEqual([]);
  expect(report.warnings.filter((p) => p.file.endsWith(`/${slug}.yaml`))).toEqual([]);
});

test("every picture field shows its picture and its file name, after a reload too", async ({ page }) => {
  const pages = cmsCollections(path.join(projectRoot, "data")).flatMap((c) => c.files ?? []);
  // About, Home and a service: the one the first test published a new banner to, when it ran.
  const { list, label, fields: serviceFields } = services();
  const service = list.filter((s) => s.banner)[0]!;
  const entries = [
    ...["about", "home"].map((name) => {
      const file = pages.find((f) => f.name === name)!;
      return { list: "pages", link: file.label, yaml: dataPath(path.relative("data", file.file)), fields: file.fields };
    }),
    {
      list: "services",
      link: label(service),
      yaml: dataPath("services", `${service.slug}.yaml`),
      fields: serviceFields,
    },
  ];
  // The studio is opened once; each entry is chosen from its list, as an editor does (each file is
  // loaded for the first time either way: the case that showed an empty checkerboard); the service is
  // then reloaded, the same again.
  await open(page, entries[0]!.list);
  for (const { list: name, link, yaml, fields } of entries) {
    await page.goto(`${session.studio.url}#/collections/${name}`);
    await page.getByRole("link", { name: link, exact: true }).click();
    await expectPictures(page, yaml, fields);
  }
  const last = entries.at(-1)!;
  await page.reload();
  await expectPictures(page, last.yaml, last.fields);
});

test("a picture narrower than its place is warned about beside the field", async ({ page }) => {
  const { list, bannerField } = services();
  const service = list.filter((s) => s.banner).at(-1)!;
  const narrow = Math.round(bannerField.min / 4);
  const file = path.join(fs.mkdtempSync(path.join(session.dir, "uploads-")), "small-banner.jpg");
  await sharp({ create: { width: narrow, height: Math.round(narrow / 3), channels: 3, background: "#2e7a4d" } })
    .jpeg()
    .toFile(file);

  const seen = dialogs(page);
  await open(page, `services/entries/${service.slug}`);
  const field = control(page, bannerField.label);
  // The saved picture is wide enough: nothing to say.
  await expect(field.locator("img")).toBeVisible();
  await expect(field.locator(".studio-picture-warning")).toHaveCount(0);

  await upload(page, bannerField.label, file);
  const warning = field.locator(".studio-picture-warning");
  await expect(warning).toBeVisible();
  // The content check's own words, for the value the field now holds.
  const [, value] = /the image (\S+) is/.exec((await warning.textContent()) ?? "") ?? [];
  expect(value).toMatch(new RegExp(`^(\\./)?images/${service.slug}-banner(-\\d+)?\\.jpg$`));
  await expect(warning).toHaveText(`${bannerField.label}: ${narrowImageWarning(value!, narrow, bannerField.min)}.`);
  expect(seen).toEqual([]);
});

test("a saved picture narrower than its place is warned about when the page is opened, as the check says", async ({
  page,
}) => {
  const { list, bannerField } = services();
  const service = list.filter((s) => s.banner).at(-2)!;
  const file = dataPath("services", service.banner);
  const original = fs.readFileSync(file);
  // The file on disk is narrow; the studio shows saved pictures from the backend, so it must read this one.
  const narrow = Math.round(bannerField.min / 3);
  await sharp({ create: { width: narrow, height: Math.round(narrow / 3), channels: 3, background: "#7a4d2e" } })
    .jpeg()
    .toFile(file);
  try {
    const checked = inspectContent(dataPath()).warnings.find((w) => w.file.endsWith(`/${service.slug}.yaml`));
    expect(checked?.message).toContain(narrowImageWarning(service.banner, narrow, bannerField.min));

    await open(page, `services/entries/${service.slug}`);
    const warning = control(page, bannerField.label).locator(".studio-picture-warning");
    await expect(warning).toHaveText(
      `${bannerField.label}: ${narrowImageWarning(service.banner, narrow, bannerField.min)}.`,
    );
    await expect(warning).toHaveAttribute("role", "alert");
  } finally {
    fs.writeFileSync(file, original);
  }
});

test("deleting another service's picture from the media library keeps it, and says who shows it, before asking", async ({
  page,
}) => {
  const { list, label, bannerField } = services();
  const [edited, , other] = list.filter((s) => s.banner);
  const otherFile = dataPath("services", other!.banner);
  const before = hash(otherFile);
  const name = path.basename(other!.banner);

  // Decap asks before deleting ("Are you sure …?"): not for a picture the studio keeps anyway.
  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await open(page, `services/entries/${edited!.slug}`);
  await control(page, bannerField.label)
    .getByRole("button", { name: /^Choose (an|different) image$/ })
    .click();
  await page.getByText(name, { exact: true }).click();
  // While the services are read (held back here, as a slow git host's), the library says so.
  const answer = await holdServer(page, session.studio.apiUrl);
  await page.getByRole("button", { name: "Delete selected" }).click();
  const library = page.getByRole("dialog");
  await expect(library.getByRole("status")).toHaveText(`Checking which pages show ${name}…`);
  answer();
  await expect(library.getByRole("alert")).toContainText(`${name} is not deleted: ${label(other!)} shows it.`);
  await expect(library.getByRole("status")).toHaveCount(0);
  expect(asked).toEqual([]);
  expect(fs.existsSync(otherFile)).toBe(true);
  expect(hash(otherFile)).toBe(before);
});

test("on the Media page, Delete keeps a picture the site's settings show, and deletes one no page shows", async ({
  page,
}) => {
  // The entries whose images/ folder is the Media page's (Decap's media_folder): read from the config.
  const beside = cmsCollections(path.join(projectRoot, "data"))
    .flatMap((c) => c.files ?? [])
    .filter((f) => path.posix.dirname(f.file) === "data/site");
  const [settings] = beside;
  expect(settings).toBeDefined();
  const values = Object.values(
    parse(fs.readFileSync(dataPath(path.relative("data", settings!.file)), "utf8")) as object,
  );
  const shown = values.map((v) => /^(?:\.\/)?images\/([^/]+)$/.exec(String(v))?.[1]).find(Boolean);
  expect(shown).toBeDefined();
  const shownFile = dataPath("site", "images", shown!);
  const before = hash(shownFile);
  const unused = dataPath("site", "images", "not-shown-anywhere.jpg");
  fs.copyFileSync(shownFile, unused);

  const asked: string[] = [];
  page.on("dialog", (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await open(page, "pages");
  await page.getByRole("button", { name: "Media" }).click();
  await page.getByText(shown!, { exact: true }).click();
  await page.getByRole("button", { name: "Delete selected" }).click();
  await expect(page.getByText(`${shown} is not deleted: ${settings!.label} shows it.`)).toBeVisible();
  // Refused before Decap asks whether to delete it.
  expect(asked).toEqual([]);
  expect(hash(shownFile)).toBe(before);

  // A picture no page shows: Decap's question, once, then it goes.
  await page.getByText("not-shown-anywhere.jpg", { exact: true }).click();
  await page.getByRole("button", { name: "Delete selected" }).click();
  await expect.poll(() => fs.existsSync(unused)).toBe(false);
  await expect(page.getByText("not-shown-anywhere.jpg", { exact: true })).toHaveCount(0);
  expect(asked).toEqual(["Are you sure you want to delete selected media?"]);
  expect(hash(shownFile)).toBe(before);
});
