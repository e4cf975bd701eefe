/**
 * The studio refuses to save what the content check would refuse, saying why in plain words, and
 * writes nothing when it does: in the real studio against decap-server, on a copy of data/, a service's
 * menu label of spaces only, an order another service has (also one that service got from someone
 * else while the page was open), a copy of a service under the same slug (Decap wrote it as
 * <slug>-1.yaml before), and an existing service's slug changed. Each refusal leaves every file byte
 * for byte; each corrected value saves. After each, the content check, run on the folder the studio
 * wrote to (`npm run check:content -- <folder>`), finds no problem. Deleting a service the Services
 * menu lists is refused before Decap's confirm, saying where it is listed; a menu entry naming a
 * service whose file is gone says so, in the form and the preview, and is not published.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type Locator, type Page } from "@playwright/test";
import { parse } from "yaml";
import { cmsCollections } from "../../../src/node/content/cms-config";
import { projectRoot } from "../../support/serve";
import { askToPublish, control, entryBar, open as openIn, studioForTests, test } from "./support/studio-session";

test.describe.configure({ mode: "serial" });

const session = studioForTests("studio-refuses");
const open = (page: Page, entry: string) => openIn(page, session.studio, entry);

// The services collection as the studio has it: its key, the field naming a service, their labels.
const services = cmsCollections(path.join(projectRoot, "data")).find((c) => c.name === "services")!;
const keyField = services.fields!.find((f) => f.unique?.file_name)!;
const orderField = services.fields!.find((f) => f.unique && !f.unique.file_name)!;
const nameField = services.fields!.find((f) => f.name === keyField.unique!.label_field)!;

interface Service {
  file: string;
  data: Record<string, unknown>;
}

/** The services of the studio's copy, in the grid's order. */
function readServices(): Service[] {
  const folder = path.join(session.dir, "data/services");
  return fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".yaml"))
    .map((file) => ({ file, data: parse(fs.readFileSync(path.join(folder, file), "utf8")) as Record<string, unknown> }))
    .sort((a, b) => Number(a.data.order) - Number(b.data.order));
}

/** Publishes and expects the refusal under the field; nothing in the copy changes. */
async function expectRefused(page: Page, message: string): Promise<void> {
  const before = session.snapshot();
  await askToPublish(page);
  // (Soft: when the message is missing, what was written is worth seeing too.)
  await expect.soft(page.getByText(message, { exact: true })).toBeVisible();
  // A save that was not refused would have written by now (they take well under a second here).
  await page.waitForTimeout(1500);
  await expect.soft(page.getByText("Entry saved")).toHaveCount(0);
  expect(session.snapshot()).toEqual(before);
}

/** Publishes and waits until decap-server has written the file. */
async function expectSaved(page: Page, file: string): Promise<void> {
  const before = fs.readFileSync(path.join(session.dir, "data/services", file), "utf8");
  await askToPublish(page);
  await expect(page.getByText("Entry saved")).toBeVisible();
  await expect.poll(() => fs.readFileSync(path.join(session.dir, "data/services", file), "utf8")).not.toBe(before);
}

/**
 * Types into a field the studio checks against the other services, and waits for its reading of them
 * (decap-server's entriesByFolder) that follows the change: until it ends, the studio refuses to save.
 */
async function fillChecked(page: Page, input: Locator, value: string): Promise<void> {
  const read = page.waitForRequest((r) => (r.postData() ?? "").includes('"entriesByFolder"'));
  await input.fill(value);
  await (await read).response();
}

/** A whole number no service has, after `from`. */
const freeOrder = (from: number) => {
  const used = new Set(readServices().map((s) => s.data.order));
  let order = Math.floor(from) + 1;
  while (used.has(order)) order += 1;
  return order;
};

const slugOf = (s: Service) => s.file.replace(/\.yaml$/, "");

/** `npm run check:content -- <folder>` on the folder the studio wrote to: no problem. */
function expectCheckPasses(): void {
  const dataDir = path.join(session.dir, "data");
  const run = spawnSync(process.execPath, ["--import", "tsx", "src/scripts/check-content.ts", dataDir], {
    cwd: projectRoot,
    encoding: "utf8",
  });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
  expect(run.stdout).toContain("The content check found no problems");
}

test("a menu label of only spaces is refused, naming the field; a real one saves", async ({ page }) => {
  // A refused publish is an answer to the editor, not an error of the page; nor is any request answered 404.
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(`${error.name}: ${error.message}`));
  const notFound: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });
  const [service] = readServices();
  await open(page, `services/entries/${slugOf(service!)}`);
  const input = control(page, nameField.label).locator("input");
  await input.fill("   ");
  await expectRefused(
    page,
    `${nameField.label} cannot be only spaces: write the text, or it is missing from the page.`,
  );

  const label = `${String(service!.data[nameField.name])} (edited)`;
  // (Emptied first: a fill over the spaces kept them in front, as Decap's input restores its caret.)
  await input.clear();
  await input.fill(label);
  await expect(input).toHaveValue(label);
  await expectSaved(page, service!.file);
  expect(readServices()[0]!.data[nameField.name]).toBe(label);
  expectCheckPasses();
  // The tab's icon, which the page links: the browser does not report its own request for it to the page.
  const iconLink = page.locator('link[rel="icon"]');
  await expect(iconLink).toHaveAttribute("href", /^\/admin\//);
  const icon = await page.request.get(new URL((await iconLink.getAttribute("href"))!, page.url()).href);
  expect({ status: icon.status(), type: icon.headers()["content-type"] }).toEqual({ status: 200, type: "image/png" });
  expect({ pageErrors, notFound }).toEqual({ pageErrors: [], notFound: [] });
});

test("an order another service has is refused, naming it, also one it took a moment ago", async ({ page }) => {
  const [first, second] = readServices();
  await open(page, `services/entries/${slugOf(second!)}`);
  const order = control(page, orderField.label).locator("input");
  await fillChecked(page, order, String(first!.data.order));
  await expectRefused(
    page,
    `${orderField.label} ${String(first!.data.order)} is already used by ${String(first!.data[nameField.name])}; choose another number.`,
  );

  // A number no service has saves.
  const moved = freeOrder(Number(second!.data.order));
  await fillChecked(page, order, String(moved));
  await expectSaved(page, second!.file);
  expect(parse(fs.readFileSync(path.join(session.dir, "data/services", second!.file), "utf8"))).toMatchObject({
    order: moved,
  });

  // Meanwhile someone else gives the first service a new number (its file changes, not this page): the
  // studio reads the services again, not what it loaded with the page.
  const taken = freeOrder(moved);
  const firstFile = path.join(session.dir, "data/services", first!.file);
  fs.writeFileSync(firstFile, fs.readFileSync(firstFile, "utf8").replace(/^order: .*$/m, `order: ${taken}`));
  await fillChecked(page, order, String(taken));
  await expectRefused(
    page,
    `${orderField.label} ${taken} is already used by ${String(first!.data[nameField.name])}; choose another number.`,
  );
  expectCheckPasses();
});

test("a copy of a service under the same slug is refused: no <slug>-1.yaml is written", async ({ page }) => {
  const services = readServices();
  const original = services.at(-1)!;
  const slug = slugOf(original);
  await open(page, `services/entries/${slug}`);
  await expect(control(page, keyField.label).locator("input")).toHaveValue(slug);
  // Published → Duplicate: a new entry with the same data, the slug included (Decap named its file <slug>-1).
  await page.getByRole("button", { name: "Published" }).click();
  await page.getByText("Duplicate", { exact: true }).filter({ visible: true }).click();
  await expect(page).toHaveURL(/#\/collections\/services\/new/);
  await expect(control(page, keyField.label).locator("input")).toHaveValue(slug);
  // Its own order, so that the slug alone is what is refused.
  await fillChecked(
    page,
    control(page, orderField.label).locator("input"),
    String(freeOrder(Number(original.data.order))),
  );
  await expectRefused(
    page,
    `${keyField.label} "${slug}" is already used by ${String(original.data[nameField.name])}; choose another.`,
  );
  expect(readServices().map((s) => s.file)).toEqual(services.map((s) => s.file));
  expect(fs.existsSync(path.join(session.dir, "data/services", `${slug}-1.yaml`))).toBe(false);
  expectCheckPasses();
});

test("an existing service's slug cannot be changed: the studio cannot rename its file", async ({ page }) => {
  const [first, second] = readServices();
  await open(page, `services/entries/${slugOf(first!)}`);
  await fillChecked(page, control(page, keyField.label).locator("input"), slugOf(second!));
  await expectRefused(
    page,
    `${keyField.label} must stay "${slugOf(first!)}": it is the name of this service's file (${first!.file}), which the studio cannot rename.`,
  );
  expectCheckPasses();
});

// The place in the studio that names services: the Services menu of Navigation, under "Site and menu".
const site = cmsCollections(path.join(projectRoot, "data")).find((c) => c.files?.some((f) => f.name === "navigation"))!;
const navigation = site.files!.find((f) => f.name === "navigation")!;
const menuField = navigation.fields.find((f) => f.field?.widget === "relation" && f.field.collection === "services")!;
const listed = () => parse(session.readText("navigation/navigation.yaml"))[menuField.name] as string[];

test("deleting a service the Services menu lists is refused before the confirm, saying where", async ({ page }) => {
  const slug = listed().find((s) => readServices().some((service) => slugOf(service) === s))!;
  const confirms: string[] = [];
  page.on("dialog", (dialog) => {
    confirms.push(dialog.message());
    void dialog.accept();
  });
  await open(page, `services/entries/${slug}`);
  await expect(control(page, keyField.label).locator("input")).toHaveValue(slug);
  const before = session.snapshot();
  await page.getByRole("button", { name: "Delete entry" }).click();
  await expect(
    page.getByText(
      `${site.label} → ${navigation.label} → ${menuField.label} lists this service (${navigation.file}): remove it there first, then delete it.`,
    ),
  ).toBeVisible();
  expect(confirms).toEqual([]);
  expect(session.snapshot()).toEqual(before);
  expectCheckPasses();
});

test("a service the Services menu names but whose file is gone is named, with what to do", async ({ page }) => {
  const [first, gone] = [listed()[0]!, listed().at(-1)!];
  const file = path.join(session.dir, "data/services", `${gone}.yaml`);
  const text = fs.readFileSync(file, "utf8");
  fs.rmSync(file);
  try {
    await open(page, "site/entries/navigation");
    const note = `"${gone}" is not a service any more: there is no data/services/${gone}.yaml. Remove this entry (×), or choose another service.`;
    await expect(control(page, menuField.label).getByText(note)).toBeVisible();
    // The preview (the site's header and menu) agrees with the form: the same words for the missing
    // one, a service's name for the others, in the menu as the site renders it.
    const preview = page.frameLocator("#preview-pane");
    await expect(preview.getByText(note)).toBeVisible();
    const name = readServices().find((s) => slugOf(s) === first)!.data[nameField.name] as string;
    await expect(preview.getByRole("banner").locator("nav li li a").getByText(name, { exact: true })).toHaveCount(1);
    // Publishing is refused (the check would refuse the file): the same words, also where Decap puts errors.
    const before = session.snapshot();
    await entryBar(control(page, "Main"), 0).locator("button").first().click();
    await control(page, "Label").locator("input").first().fill("Home!");
    await askToPublish(page);
    await expect(control(page, menuField.label).getByText(note)).toHaveCount(2);
    expect(session.snapshot()).toEqual(before);
  } finally {
    fs.writeFileSync(file, text);
  }
});
