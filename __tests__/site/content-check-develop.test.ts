/**
 * @jest-environment node
 *
 * The content check in `gatsby develop` (plugins/gatsby-plugin-cyrus-content), for real: Gatsby's
 * develop server on a copy of the site, and Debian's Chromium on a service page while an editor
 * breaks and fixes that service's file. A mistake shows in an overlay on every page and in the
 * terminal, the page keeps its last good version, and the fix takes the overlay away and shows the
 * new text, without a reload; a text far too long for its place shows as a warning, in the check's
 * words, in both, and goes when shortened. About a minute and a half on 2 cores, most of it Gatsby
 * starting.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
// Playwright's own expect waits (bounded) for a locator's condition; Jest's checks values.
import { chromium, expect as expectPage, type Browser, type Page } from "@playwright/test";
import { formatProblems, placeOf, type ContentProblem } from "../../src/node/content/problems";
import { readContent } from "../../src/node/content/read-content";
import { inspectContent } from "../../src/node/content/validate";
import { parseDocument } from "yaml";
import { FEED_PATH, type FeedBody } from "../../plugins/gatsby-plugin-cyrus-content/src/endpoints";
import { OVERLAY_ID } from "../../plugins/gatsby-plugin-cyrus-content/src/overlay";
import { noWarningsIn } from "../../plugins/gatsby-plugin-cyrus-content/src/terminal";
import { UPDATING_TEXT } from "../../plugins/gatsby-plugin-cyrus-content/src/updating-notice";
import { chromePath, chromiumArgs } from "../../tools/chromium";
import { freePort, projectRoot } from "../support/serve";
import { copyProject, editFile, plainText, runGatsby, waitFor, type GatsbyRun } from "../support/project-copy";

/**
 * A bound for a hang, not a wait (the wait is for Gatsby's "You can now view" and the problems feed):
 * Gatsby serves in about 100 s on 2 idle cores and up to 250 s with both cores busy, but took over
 * 300 s (186 s of it making the 128 images) with the machine loaded 12 times over its 2 cores.
 */
const START_MS = 600_000;
/** A change is seen within a second or two; Gatsby's rebuild of the page data can take longer on a busy machine. */
const CHANGE_MS = 30_000;

let root: string;
let origin: string;
let develop: GatsbyRun;
let browser: Browser;
let page: Page;
let stopping = false;

beforeAll(async () => {
  root = copyProject("cyrus-site-");
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  const started = Date.now();
  develop = runGatsby(root, ["develop", "-H", "127.0.0.1", "-p", String(port)]);
  develop.exited.then((code) => {
    if (!stopping) console.error(`gatsby develop exited (${code}) during the test:\n${develop.output()}`);
  });
  await waitFor(
    "gatsby develop to serve the site",
    async () => {
      if (develop.child.exitCode !== null) throw new Error(`gatsby develop exited:\n${develop.output()}`);
      if (!develop.output().includes("You can now view")) return false;
      return (await fetch(`${origin}${FEED_PATH}`).catch(() => undefined))?.ok;
    },
    START_MS,
    1000,
  );
  console.info(`gatsby develop served the copy after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  browser = await chromium.launch({ executablePath: chromePath, args: [...chromiumArgs] });
  page = await browser.newPage();
}, START_MS + 30_000);

afterAll(async () => {
  // What Gatsby printed, to read when a test failed (test-results/ is not committed).
  if (develop) {
    const log = path.join(projectRoot, "test-results", "content-check-develop.log");
    fs.mkdirSync(path.dirname(log), { recursive: true });
    fs.writeFileSync(log, plainText(develop.output()).replace(/ (info|success|warn|ERROR) /g, "\n$1 "));
  }
  stopping = true;
  await browser?.close();
  await develop?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
}, 30_000);

const feedNow = async (): Promise<FeedBody> => (await (await fetch(`${origin}${FEED_PATH}`)).json()) as FeedBody;
const problemsNow = async (): Promise<ContentProblem[]> => (await feedNow()).problems;
/** Waits until Gatsby has handed the file to the plugin, which held it back. */
const heldBack = (file: string) =>
  waitFor(`${file} to be held back`, async () => (await feedNow()).heldBack.some((h) => h.file === file), CHANGE_MS);

const overlay = () => page.locator(`#${OVERLAY_ID}`);

interface Notice {
  text?: string;
  shownAt?: number;
  goneAt?: number;
}
/** In the page: records the "updating" notice's text, and when it came and went (it may last a moment only). */
function watchNotice(id: string): void {
  const notice: Notice = {};
  (window as unknown as { __notice: Notice }).__notice = notice;
  new MutationObserver(() => {
    const text = document.getElementById(id)?.shadowRoot?.querySelector('[role="status"]')?.textContent;
    if (text && notice.shownAt === undefined) Object.assign(notice, { text, shownAt: performance.now() });
    else if (!text && notice.shownAt !== undefined && notice.goneAt === undefined) notice.goneAt = performance.now();
  }).observe(document.body, { childList: true });
}
/** The overlay's panel, in its shadow root (Playwright's CSS reaches into open shadow roots). */
const panel = () => page.locator(`#${OVERLAY_ID} section`);
/** The page's main heading (not the overlay's, which is an h2 anyway). */
const heading = () => page.locator("main h1");
const line = (text: string, pattern: RegExp) => text.split("\n").findIndex((l) => pattern.test(l)) + 1;

/** The terminal output printed since `from` characters. */
const printedSince = (from: number) => develop.output().slice(from);

test("a mistake shows in the overlay and the terminal, the page keeps its last good version; the fix shows live", async () => {
  const service = readContent(path.join(root, "data")).services[0];
  if (!service) throw new Error("data/services/ holds no service");
  const file = `data/services/${service.slug}.yaml`;
  const original = fs.readFileSync(path.join(root, file), "utf8");
  const route = `/services/${service.slug}`;

  await page.goto(`${origin}${route}`);
  await expectPage(heading()).toHaveText(service.title, { timeout: CHANGE_MS });
  await expectPage(overlay()).toHaveCount(0);

  // 1. A misspelt field name.
  let mark = develop.output().length;
  editFile(root, file, (text) => text.replace(/^title:/m, "titel:"));
  const typoLine = line(fs.readFileSync(path.join(root, file), "utf8"), /^titel:/);
  await expectPage(panel().locator("h2")).toHaveText(/^Content check: \d+ problems? in data\/$/, {
    timeout: CHANGE_MS,
  });
  await expectPage(panel()).toContainText(`${file}:${typoLine}`);
  await expectPage(panel()).toContainText('field "titel"');
  await expectPage(panel()).toContainText("is not a known field");
  await heldBack(file);
  await expectPage(panel()).toContainText(`the last good version of ${file}`);
  const problems = await problemsNow();
  expect(problems.some((p) => p.file === file && p.field === "titel")).toBe(true);
  for (const p of problems) await expectPage(panel()).toContainText(placeOf(p));
  await waitFor("the report in the terminal", () => printedSince(mark).includes(" ERROR #content-check"), CHANGE_MS);
  expect(plainText(printedSince(mark))).toContain(plainText(formatProblems(problems)));
  // The page keeps its last good version, also when loaded again, and every page shows the overlay.
  await expectPage(heading()).toHaveText(service.title);
  await page.reload();
  await expectPage(panel().locator("h2")).toBeVisible({ timeout: CHANGE_MS });
  // Loaded again, the page asks for its data, which Gatsby makes on demand: 5 s here at times.
  await expectPage(heading()).toHaveText(service.title, { timeout: CHANGE_MS });
  const other = await browser.newPage();
  await other.goto(`${origin}/home`);
  await expectPage(other.locator(`#${OVERLAY_ID} h2`)).toBeVisible({ timeout: CHANGE_MS });
  await other.close();

  // Hidden by its button, until the next change.
  await panel().getByRole("button").click();
  await expectPage(overlay()).toHaveCount(0);

  // 2. Fixed, with a new title: the overlay goes, the new title shows, the terminal says so once.
  mark = develop.output().length;
  const newTitle = `${service.title} (edited)`;
  await page.evaluate(watchNotice, OVERLAY_ID);
  editFile(root, file, () => original.replace(/^title:.*$/m, `title: ${newTitle}`));
  await expectPage(heading()).toHaveText(newTitle, { timeout: CHANGE_MS });
  // Meanwhile a notice said the page was updating; the new data took it away.
  await expectPage(overlay()).toHaveCount(0, { timeout: CHANGE_MS });
  const notice = await page.evaluate(() => (window as unknown as { __notice: Notice }).__notice);
  expect(notice.text).toBe(UPDATING_TEXT);
  console.info(`the page said it was updating for ${((notice.goneAt! - notice.shownAt!) / 1000).toFixed(1)} s`);
  await waitFor(
    "the success line in the terminal",
    () => printedSince(mark).includes("The content check found no problems in data/"),
    CHANGE_MS,
  );
  expect(await feedNow()).toEqual({ problems: [], heldBack: [], warnings: [] });

  // 3. A YAML syntax slip: a line indented by one space.
  mark = develop.output().length;
  editFile(root, file, (text) => text.replace(/^menuLabel:/m, " menuLabel:"));
  await expectPage(panel().locator("h2")).toBeVisible({ timeout: CHANGE_MS });
  await expectPage(panel()).toContainText("is indented differently from the lines around it");
  await expectPage(panel()).toContainText(`${file}:`);
  await waitFor(
    "the syntax error in the terminal",
    () => printedSince(mark).includes("is indented differently from the lines around it"),
    CHANGE_MS,
  );
  await page.reload();
  await expectPage(heading()).toHaveText(newTitle, { timeout: CHANGE_MS });

  // Put right again: nothing left over.
  editFile(root, file, () => original);
  await expectPage(heading()).toHaveText(service.title, { timeout: CHANGE_MS });
  await expectPage(overlay()).toHaveCount(0);
}, 240_000);

test("a file held back by another file's problem follows as soon as that file puts it right", async () => {
  const content = readContent(path.join(root, "data"));
  const [first] = content.services;
  if (!first) throw new Error("data/services/ holds no service");
  const slug = "content-check-added";
  const serviceFile = `data/services/${slug}.yaml`;
  const navigation = "data/navigation/navigation.yaml";
  const link = () => page.locator(`header a[href="/services/${slug}"]`);
  await page.goto(`${origin}/home`);
  await expectPage(page.locator("main h1")).toBeVisible({ timeout: CHANGE_MS });

  // The dropdown names a service before its file exists: the navigation is held at its last good version.
  editFile(root, navigation, (text) => text.replace(/^(servicesMenu:\n)(\s*- )/m, `$1$2${slug}\n$2`));
  await expectPage(panel()).toContainText(`names the service "${slug}"`, { timeout: CHANGE_MS });
  await heldBack(navigation);
  await expectPage(link()).toHaveCount(0);
  // The service's file comes: the navigation, unchanged since, is read again, and the dropdown has it.
  const order = Math.max(...content.services.map((s) => s.order)) + 1;
  fs.writeFileSync(
    path.join(root, serviceFile),
    fs
      .readFileSync(path.join(root, `data/services/${first.slug}.yaml`), "utf8")
      .replace(/^slug:.*$/m, `slug: ${slug}`)
      .replace(/^order:.*$/m, `order: ${order}`),
  );
  await expectPage(overlay()).toHaveCount(0, { timeout: CHANGE_MS });
  await expectPage(link().first()).toBeAttached({ timeout: CHANGE_MS });
  expect(await feedNow()).toEqual({ problems: [], heldBack: [], warnings: [] });
}, 120_000);

test("a save Gatsby's own watcher missed still shows, without saving again", async () => {
  const services = readContent(path.join(root, "data")).services;
  const service = services[1] ?? services[0];
  if (!service) throw new Error("data/services/ holds no service");
  const file = path.join(root, `data/services/${service.slug}.yaml`);
  const original = fs.readFileSync(file, "utf8");
  await page.goto(`${origin}/services/${service.slug}`);
  await expectPage(heading()).toHaveText(service.title, { timeout: CHANGE_MS });

  // A save Gatsby's watcher misses, made to happen every time: with Gatsby stopped, the file saved and
  // given its old timestamps back (touch -r copies them to the nanosecond). Once Gatsby goes on, its
  // watcher reports nothing, or gatsby-source-filesystem takes the digest it cached for that mtime and
  // inode: Gatsby keeps the old text. So it goes when chokidar drops the write of a save that came
  // within 5 ms of its truncation (plugins/gatsby-plugin-cyrus-content/src/file-nodes.ts).
  const stamps = path.join(root, "timestamps");
  fs.writeFileSync(stamps, "");
  execFileSync("touch", ["-r", file, stamps]);
  const newTitle = `${service.title} (saved unseen)`;
  process.kill(-develop.child.pid!, "SIGSTOP");
  try {
    fs.writeFileSync(file, original.replace(/^title:.*$/m, `title: ${newTitle}`));
    execFileSync("touch", ["-r", stamps, file]);
  } finally {
    process.kill(-develop.child.pid!, "SIGCONT");
  }
  await expectPage(heading()).toHaveText(newTitle, { timeout: CHANGE_MS });
  await expectPage(overlay()).toHaveCount(0);

  editFile(root, `data/services/${service.slug}.yaml`, () => original);
  await expectPage(heading()).toHaveText(service.title, { timeout: CHANGE_MS });
}, 120_000);

test("a text far too long for its place: a warning over the page and in the terminal, in the check's words; gone once shortened", async () => {
  const service = readContent(path.join(root, "data")).services[0];
  if (!service) throw new Error("data/services/ holds no service");
  const file = `data/services/${service.slug}.yaml`;
  const original = fs.readFileSync(path.join(root, file), "utf8");
  await page.goto(`${origin}/services/${service.slug}`);
  await expectPage(heading()).toHaveText(service.title, { timeout: CHANGE_MS });
  await expectPage(overlay()).toHaveCount(0);

  // The banner's description made a paragraph long: over what a screen reader reads out well.
  let mark = develop.output().length;
  const doc = parseDocument(original);
  doc.set("bannerAlt", `${String(doc.get("bannerAlt"))}. `.repeat(12).trim());
  editFile(root, file, () => doc.toString());
  const warnings = inspectContent(path.join(root, "data"), root).warnings;
  expect(warnings.map((w) => [w.file, w.field])).toEqual([[file, "bannerAlt"]]);
  const [warning] = warnings;
  await expectPage(panel().locator("h2")).toHaveText("Content check: 1 warning in data/", { timeout: CHANGE_MS });
  await expectPage(panel()).toContainText(`${placeOf(warning!)}, field "bannerAlt"`);
  await expectPage(panel()).toContainText(warning!.message);
  // Gatsby's terminal breaks long lines: compared as plain text, as the error report above.
  const printed = () => plainText(printedSince(mark));
  await waitFor("the warning in the terminal", () => printed().includes(plainText(warning!.message)), CHANGE_MS);
  expect(plainText(printedSince(mark))).toContain(plainText(formatProblems(warnings, "warning")));
  // A warning holds nothing back.
  expect(await feedNow()).toEqual({ problems: [], heldBack: [], warnings });

  // Another file saved, then this one shortened: the warning goes from the page, the terminal says so
  // once, and did not print the unchanged warning again for the other file's save.
  mark = develop.output().length;
  const other = readContent(path.join(root, "data")).services.find((s) => s.slug !== service.slug);
  const otherFile = other && `data/services/${other.slug}.yaml`;
  if (otherFile) {
    editFile(root, otherFile, (text) => `${text}# saved again\n`);
    // Longer than the watcher's wait for the end of a burst of saves (plugins/…/src/watch.ts): a check of its own.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  editFile(root, file, () => original);
  await expectPage(overlay()).toHaveCount(0, { timeout: CHANGE_MS });
  await waitFor("the all-clear in the terminal", () => printed().includes(noWarningsIn(file)), CHANGE_MS);
  expect(printed()).not.toContain(plainText(warning!.message));
  expect(await feedNow()).toEqual({ problems: [], heldBack: [], warnings: [] });
  if (otherFile) editFile(root, otherFile, (text) => text.replace(/# saved again\n$/, ""));
}, 120_000);

test("every error Gatsby printed was the content check's: no GraphQL error, no page that failed to build", () => {
  const output = develop.output();
  const errors = [...output.matchAll(/ ERROR #?(\S*)/g)];
  expect(errors.some((m) => m[1] === "content-check")).toBe(true);
  // Each other error with what follows it, to read in the failure.
  expect(errors.filter((m) => m[1] !== "content-check").map((m) => output.slice(m.index, m.index + 2000))).toEqual([]);
});
