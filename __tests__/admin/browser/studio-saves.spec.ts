/**
 * A save from the studio changes only what the editor changed: in the real studio against
 * decap-server, on a copy of data/, one field of every kind of content file (each page, a service, an
 * approval, the site and menu files) is changed and published, list entries are added and removed,
 * and each time the file's line diff (what `git diff` shows) is that field's or entry's lines alone.
 * Comments, blank lines and quoting elsewhere stay byte for byte.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { parse } from "yaml";
import { startStudio, type RunningStudio } from "../../../admin/scripts/cms";
import { cmsCollections, type CmsField } from "../../../src/node/content/cms-config";
import { inspectContent } from "../../../src/node/content/validate";
import { lineDiff } from "../../support/line-diff";
import { freePort, projectRoot } from "../../support/serve";

let dir: string;
let studio: RunningStudio;

test.beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-studio-saves-"));
  fs.cpSync(path.join(projectRoot, "data"), path.join(dir, "data"), { recursive: true });
  studio = await startStudio({
    repo: dir,
    port: await freePort(),
    apiPort: await freePort(),
    out: path.join(dir, "studio"),
  });
});

test.afterAll(async () => {
  await studio?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const readText = (file: string) => fs.readFileSync(path.join(dir, "data", file), "utf8");
const comments = (text: string) => text.split("\n").filter((line) => /^\s*#/.test(line));

/** Signs in (the local backend's button) and opens an entry of the studio. */
async function open(page: Page, entry: string): Promise<void> {
  await page.goto(studio.url);
  const login = page.getByRole("button", { name: "Login" });
  const pages = page.getByRole("link", { name: "Pages" }).first();
  await expect(login.or(pages)).toBeVisible();
  if (await login.isVisible()) await login.click();
  await expect(pages).toBeVisible();
  await page.goto(`${studio.url}#/collections/${entry}`);
}

/** A field's control by its label (Decap adds " (optional)" to an optional field's). */
const control = (page: Page, label: string) =>
  page
    .locator("[aria-label$=' field']")
    .filter({ has: page.locator("label", { hasText: new RegExp(`^${label}( \\(optional\\))?$`) }) })
    .first();

/** Publishes, and returns the file's text once decap-server has written it. */
async function publish(page: Page, file: string, before: string): Promise<string> {
  await page.getByRole("button", { name: "Publish" }).first().click();
  await page.getByText("Publish now", { exact: true }).filter({ visible: true }).first().click();
  await expect(page.getByText("Entry saved")).toBeVisible();
  await expect.poll(() => readText(file)).not.toBe(before);
  return readText(file);
}

/** The studio's entries: each page file, the first service and approval, the site file. */
function entries(): Array<{ entry: string; file: string; field: CmsField }> {
  const found: Array<{ entry: string; file: string; field: CmsField }> = [];
  // The first one-line text without a pattern: a heading, a label, a name (anything may be appended).
  const textField = (fields: CmsField[]) => fields.find((f) => f.widget === "string" && !f.pattern);
  for (const collection of cmsCollections(path.join(projectRoot, "data"))) {
    for (const file of collection.files ?? []) {
      const field = textField(file.fields);
      if (field) found.push({ entry: `${collection.name}/entries/${file.name}`, file: file.file.slice(5), field });
    }
    if (collection.folder) {
      const folder = collection.folder.slice(5);
      const first = fs.readdirSync(path.join(projectRoot, "data", folder)).find((f) => f.endsWith(".yaml"))!;
      const field = textField(collection.fields!)!;
      found.push({
        entry: `${collection.name}/entries/${first.replace(/\.yaml$/, "")}`,
        file: `${folder}/${first}`,
        field,
      });
    }
  }
  return found;
}

test("one field changed in each kind of file: the diff is that field's line alone", async ({ page }) => {
  const all = entries();
  // Each page file, a service, an approval and the site file (the menu has its own test below).
  expect(all.map((e) => e.entry)).toEqual(
    expect.arrayContaining(["pages/entries/about", "site/entries/site", expect.stringMatching(/^services\//)]),
  );
  expect(all.filter((e) => e.entry.startsWith("approvals/"))).toHaveLength(1);
  const figures: string[] = [];
  for (const { entry, file, field } of all) {
    const before = readText(file);
    const data = parse(before) as Record<string, unknown>;
    const value = `${String(data[field.name])} (edited)`;
    await open(page, entry);
    await control(page, field.label).locator("input").fill(value);
    const saved = await publish(page, file, before);

    const diff = lineDiff(before, saved);
    const old = before.split("\n").findIndex((line) => line.startsWith(`${field.name}:`));
    expect({ entry, removed: diff.removed }).toEqual({ entry, removed: [old] });
    expect({ entry, added: diff.lines.slice(1) }).toEqual({
      entry,
      added: [expect.stringMatching(`^\\+${field.name}: `)],
    });
    expect(parse(saved)).toEqual({ ...data, [field.name]: value });
    expect(comments(saved)).toEqual(comments(before));
    figures.push(`${file} ${field.name}: +${diff.added.length} -${diff.removed.length}`);
  }
  test.info().annotations.push({ type: "figures", description: figures.join("; ") });
  expect(inspectContent(path.join(dir, "data")).problems).toEqual([]);
});
