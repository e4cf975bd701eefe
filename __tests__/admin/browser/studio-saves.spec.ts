/**
 * A save from the studio changes only what the editor changed: in the real studio against
 * decap-server, on a copy of data/, one field of every kind of content file (each page, a service, an
 * approval, the site and menu files) is changed and published, list entries are added and removed,
 * and each time the file's line diff (what `git diff` shows) is that field's or entry's lines alone.
 * Comments, blank lines and quoting elsewhere stay byte for byte.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { parse } from "yaml";
import { cmsCollections, type CmsField } from "../../../src/node/content/cms-config";
import { inspectContent } from "../../../src/node/content/validate";
import { lineDiff } from "../../support/line-diff";
import { projectRoot } from "../../support/serve";
import {
  control,
  entryBar,
  open as openIn,
  publish as publishEntry,
  studioForTests,
  test,
} from "./support/studio-session";

const session = studioForTests("studio-saves");
const readText = (file: string) => session.readText(file);
const open = (page: Page, entry: string) => openIn(page, session.studio, entry);
const comments = (text: string) => text.split("\n").filter((line) => /^\s*#/.test(line));

/** Publishes, and returns the file's text once decap-server has written it. */
async function publish(page: Page, file: string, before: string): Promise<string> {
  await publishEntry(page);
  await expect.poll(() => readText(file)).not.toBe(before);
  return readText(file);
}

/** The studio's entries: each page file, the first service and approval, the site file. */
function entries(): Array<{ entry: string; file: string; field: CmsField }> {
  const found: Array<{ entry: string; file: string; field: CmsField }> = [];
  // The first one-line text without a pattern or a limit: a heading, a label, a name (anything may be appended).
  const textField = (fields: CmsField[]) => fields.find((f) => f.widget === "string" && !f.pattern && !f.max_length);
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
  // A save per kind of file, each checked first against the folder collections (the check's rules run
  // before every save): about two minutes alone, over three beside the release runner's builds.
  test.setTimeout(360_000);
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
  expect(inspectContent(path.join(session.dir, "data")).problems).toEqual([]);
});

/** The lines of a list entry in a file: from its dash to the line before the next entry or field. */
function entryLines(text: string, field: string, index: number): string[] {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`${field}:`));
  const dashes = lines.flatMap((line, i) => (i > start && /^ {2}- /.test(line) ? [i] : []));
  const end = lines.findIndex((line, i) => i > start && /^\S/.test(line));
  const from = dashes[index]!;
  const to = dashes[index + 1] ?? (end === -1 ? lines.length : end);
  return lines.slice(from, to).filter((line, i, all) => i < all.length - 1 || line.trim() !== "");
}

/** A service whose first paragraph spans lines (what the issue's one-word figure measured), of two or more. */
function serviceWithFoldedParagraph(): string {
  const folder = path.join(projectRoot, "data/services");
  const found = fs
    .readdirSync(folder)
    .filter((f) => f.endsWith(".yaml"))
    .find((f) => {
      const text = fs.readFileSync(path.join(folder, f), "utf8");
      return /^intro:\n {2}- >-\n(?: {4}\S.*\n){3}/m.test(text) && (parse(text) as { intro: [] }).intro.length > 1;
    });
  return found!.replace(/\.yaml$/, "");
}

test("one word of a service's paragraph: one line changes; a paragraph removed takes its lines", async ({ page }) => {
  const slug = serviceWithFoldedParagraph();
  const file = `services/${slug}.yaml`;
  const before = readText(file);
  const data = parse(before) as { intro: string[] };
  const [first] = data.intro;
  // A long word of the paragraph's middle, made shorter: its line cannot overflow into the next.
  const word = first!.split(" ").find((w, i, all) => i > all.length / 3 && /^[a-z]{7,}$/.test(w))!;
  const edited = first!.replace(` ${word} `, " work ");
  await open(page, `services/entries/${slug}`);
  const intro = control(page, "Intro");
  // The list's entries are folded: the first one's bar unfolds it.
  await entryBar(intro, 0).locator("button").first().click();
  await intro.locator("textarea").filter({ visible: true }).first().fill(edited);
  const saved = await publish(page, file, before);
  const diff = lineDiff(before, saved);
  expect(diff.lines).toEqual([
    `-${before.split("\n").find((line) => line.includes(` ${word} `))}`,
    expect.stringContaining(" work "),
  ]);
  expect(parse(saved)).toEqual({ ...data, intro: [edited, ...data.intro.slice(1)] });
  test
    .info()
    .annotations.push({ type: "figures", description: `one word: +${diff.added.length} -${diff.removed.length}` });

  // The paragraph removed (its ×): exactly its own lines go.
  const gone = entryLines(saved, "intro", 0);
  await open(page, `services/entries/${slug}`);
  await entryBar(control(page, "Intro"), 0).locator("button").last().click();
  const after = await publish(page, file, saved);
  // (Compared as lines: a diff may show it shifted by one, where an entry starts as the next one does.)
  const kept = saved.split("\n");
  kept.splice(kept.indexOf(gone[0]!, kept.indexOf("intro:")), gone.length);
  expect(after.split("\n")).toEqual(kept);
  expect(lineDiff(saved, after)).toMatchObject({ added: [], removed: gone.map(() => expect.any(Number)) });
  expect(parse(after)).toEqual({ ...data, intro: data.intro.slice(1) });
  expect(comments(after)).toEqual(comments(before));
});

test("a paragraph added to a page's list adds its own lines, after the list's last entry", async ({ page }) => {
  const file = "about/about.yaml";
  const before = readText(file);
  const data = parse(before) as { intro: string[] };
  const paragraph =
    "A paragraph added in the editing studio: long enough to be folded over lines, with a colon, a #hash " +
    "and 2022 in it, so that it must read back exactly as typed.";
  await open(page, "pages/entries/about");
  const intro = control(page, "Intro");
  await intro.getByRole("button", { name: "Add paragraph" }).click();
  await intro.locator("textarea").last().fill(paragraph);
  const saved = await publish(page, file, before);
  const diff = lineDiff(before, saved);
  expect(diff.removed).toEqual([]);
  const last = entryLines(before, "intro", data.intro.length - 1);
  const lastLine = before.split("\n").lastIndexOf(last.at(-1)!);
  // Its lines, together, right after the last paragraph's, written as the others are: each paragraph
  // of about.yaml's intro is one double-quoted line, so the new one is too; folded (`  - >-`) where
  // the others are folded.
  expect(diff.added[0]).toBe(lastLine + 1);
  expect(diff.added).toEqual(diff.added.map((_, k) => lastLine + 1 + k));
  const neighbour = before.split("\n")[lastLine]!;
  expect(diff.lines[0]).toBe(neighbour.startsWith('  - "') ? `+  - ${JSON.stringify(paragraph)}` : "+  - >-");
  expect(parse(saved)).toEqual({ ...data, intro: [...data.intro, paragraph] });
  expect(comments(saved)).toEqual(comments(before));
});

test("the menu: a label, a slug removed, a slug added: each its own line; the comments stay", async ({ page }) => {
  const file = "navigation/navigation.yaml";
  const before = readText(file);
  const data = parse(before) as { main: Array<{ label: string }>; servicesMenu: string[] };
  const figures: string[] = [];

  // A label of the header menu: its line alone, still in the file's double quotes.
  const label = `${data.main[1]!.label} (edited)`;
  await open(page, "site/entries/navigation");
  const main = control(page, "Main");
  await entryBar(main, 1).locator("button").first().click();
  await main.locator("input").filter({ visible: true }).first().fill(label);
  const labelled = await publish(page, file, before);
  expect(lineDiff(before, labelled).lines).toEqual([
    `-  - label: ${JSON.stringify(data.main[1]!.label)}`,
    `+  - label: ${JSON.stringify(label)}`,
  ]);

  // A slug removed from the Services dropdown (its ×): its line alone.
  const index = Math.floor(data.servicesMenu.length / 2);
  const slug = data.servicesMenu[index]!;
  await open(page, "site/entries/navigation");
  const menu = control(page, "Services menu");
  const bars = menu.locator("[class*=ListItemTopBar]").filter({ visible: true });
  await expect(bars).toHaveCount(data.servicesMenu.length);
  await entryBar(menu, index).locator("button").last().click();
  await expect(bars).toHaveCount(data.servicesMenu.length - 1);
  const removed = await publish(page, file, labelled);
  const removal = lineDiff(labelled, removed);
  expect(removal.lines).toEqual([`-  - ${slug}`]);
  figures.push(`slug removed: +${removal.added.length} -${removal.removed.length}`);

  // Added back at the end (＋ and the service's label in the dropdown): one line added.
  const menuLabel = String((parse(readText(`services/${slug}.yaml`)) as { menuLabel: string }).menuLabel);
  await open(page, "site/entries/navigation");
  await control(page, "Services menu")
    .getByRole("button", { name: /^Add service/ })
    .click();
  const select = control(page, "Services menu").locator("input[role=combobox]").filter({ visible: true }).last();
  await select.fill(menuLabel);
  await page.getByRole("option", { name: menuLabel, exact: true }).click();
  const added = await publish(page, file, removed);
  const addition = lineDiff(removed, added);
  expect(addition.lines).toEqual([`+  - ${slug}`]);
  figures.push(`slug added: +${addition.added.length} -${addition.removed.length}`);

  const saved = parse(added) as typeof data;
  expect(saved.servicesMenu).toEqual([...data.servicesMenu.filter((s) => s !== slug), slug]);
  expect(comments(added)).toEqual(comments(before));
  test.info().annotations.push({ type: "figures", description: figures.join("; ") });
});
