/**
 * What a studio browser test needs: the real studio (decap-server and the studio built for it) on a
 * COPY of data/ in a temporary folder, started before the file's tests and stopped after; signing in
 * and opening an entry; publishing it; a field's control by its label; a list entry's bar; the
 * studio's notice; the keyboard's way to a control; decap-server's answers held back.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test as base, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { startStudio, type RunningStudio } from "../../../../admin/scripts/cms";
import { freePort, projectRoot } from "../../../support/serve";
import { withSharedTab } from "../../../support/shared-tab";

/**
 * The studio tests' `test`: the tests of a worker share one browser context and one tab in it, as an
 * editor's visits share one browser; each test starts on about:blank, and the listeners, routes and
 * window size it set are undone after it (__tests__/support/shared-tab.ts). The context's HTTP cache
 * keeps the studio's 6 MB script and Chromium its compiled code, and the tab its renderer, all of
 * which a new context or tab per test made again. A test file's studio is an origin of its own (its port), so files
 * share no storage;
 * within a file, Decap keeps the editor signed in (open() expects either).
 */
export const test = base.extend<object, { studioContext: BrowserContext; studioTab: Page }>({
  studioContext: [
    async ({ browser }, use, workerInfo) => {
      const { viewport } = workerInfo.project.use;
      const context = await browser.newContext({ viewport });
      await use(context);
      await context.close();
    },
    { scope: "worker" },
  ],
  studioTab: [async ({ studioContext }, use) => use(await studioContext.newPage()), { scope: "worker" }],
  page: async ({ studioTab }, use, testInfo) => withSharedTab(studioTab, testInfo.project.use.viewport, use),
});

export interface StudioSession {
  /** The folder holding the copy of data/ the studio edits. */
  readonly dir: string;
  readonly studio: RunningStudio;
  /** A file of the copy, by its path under data/. */
  readText(file: string): string;
  /** Every file of the copy (YAML and images) and its bytes: what a refused save must leave as it was. */
  snapshot(): Map<string, string>;
}

/** Starts the studio on a copy of data/ for the calling test file. */
export function studioForTests(name: string): StudioSession {
  let dir = "";
  let studio: RunningStudio | undefined;
  test.beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `cyrus-${name}-`));
    fs.cpSync(path.join(projectRoot, "data"), path.join(dir, "data"), { recursive: true });
    studio = await startStudio({
      repo: dir,
      port: await freePort(),
      apiPort: await freePort(),
      out: path.join(dir, "studio"),
      reuseBuild: true,
    });
  });
  test.afterAll(async () => {
    await studio?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get studio() {
      return studio!;
    },
    readText: (file) => fs.readFileSync(path.join(dir, "data", file), "utf8"),
    snapshot: () => {
      const files = new Map<string, string>();
      const root = path.join(dir, "data");
      for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = path.join(entry.parentPath, entry.name);
        files.set(path.relative(root, file), fs.readFileSync(file).toString("base64"));
      }
      return files;
    },
  };
}

/** Signs in (the local backend's button) and opens an entry of the studio. */
export async function open(page: Page, studio: RunningStudio, entry: string): Promise<void> {
  // Straight to the entry: signed in already in this browser context (Decap keeps the user in
  // localStorage), it opens; if not, the sign-in comes first and then the entry. Always a new load of
  // the studio, as an editor opening it: from the studio, a new address that differs only after its
  // "#" would not load it again (Decap would keep what it holds).
  if (page.url().startsWith(studio.url)) await page.goto("about:blank");
  await page.goto(`${studio.url}#/collections/${entry}`);
  const login = page.getByRole("button", { name: "Login" });
  const editor = /\/(entries\/|new$)/.test(entry);
  // An entry's editor fills the window (no collection links); a collection lists its own.
  const shown = editor ? publishButton(page) : page.getByRole("link", { name: "Pages" }).first();
  await expect(login.or(shown)).toBeVisible();
  if (await login.isVisible()) await login.click();
  await expect(shown).toBeVisible();
  if (editor) await checksReady(page);
}

const publishButton = (page: Page) => page.getByRole("button", { name: /^(Publish|Save|Published)$/ }).first();

/**
 * Waits until an entry's editor is shown and its fields have read the other entries they check
 * against (admin/src/refusing-widgets.tsx marks the page meanwhile): a publish before that is refused
 * "in a moment", as an editor would see on a slow connection, which is not what these tests are about.
 */
export async function checksReady(page: Page): Promise<void> {
  await expect(publishButton(page)).toBeVisible();
  await expect(page.locator("body[data-studio-checking]")).toHaveCount(0);
}

/** Clicks Publish, then Publish now, as an editor saves an entry (what follows is the test's to see). */
export async function askToPublish(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Publish" }).first().click();
  await page.getByText("Publish now", { exact: true }).filter({ visible: true }).first().click();
}

/** Publishes the entry and waits for Decap to say it is saved. */
export async function publish(page: Page): Promise<void> {
  await askToPublish(page);
  await expect(page.getByText("Entry saved")).toBeVisible();
}

/** A field's control by its label (Decap adds " (optional)" to an optional field's). */
export const control = (page: Page, label: string) =>
  page
    .locator("[aria-label$=' field']")
    .filter({ has: page.locator("label", { hasText: new RegExp(`^${label}( \\(optional\\))?$`) }) })
    .first();

/** A list entry's bar (fold button, drag handle, remove button last): the visible ones only. */
export const entryBar = (list: ReturnType<typeof control>, index: number) =>
  list.locator("[class*=ListItemTopBar]").filter({ visible: true }).nth(index);

/** The studio's notice of a refused save or delete (admin/src/studio-notice.ts), not one of Decap's. */
export const notice = (page: Page) => page.locator(".studio-notice[role=alert]");

/** What the studio says it is doing meanwhile ("Checking …"), in the same place. */
export const noticeStatus = (page: Page) => page.locator(".studio-notice[role=status]");

/**
 * Presses `key` (Tab, or Shift+Tab) until `target` has the focus, as a keyboard's user gets there:
 * at most `max` times.
 */
export async function pressUntilFocused(page: Page, target: Locator, key = "Tab", max = 80): Promise<void> {
  for (let presses = 0; presses < max; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

/**
 * Holds back every request to decap-server from now until the returned function is called (a slow git
 * host): what the page shows while it waits for an answer can then be seen, whatever the machine's speed.
 */
export async function holdServer(page: Page, apiUrl: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.href.startsWith(apiUrl),
    async (route) => {
      await released;
      await route.continue().catch(() => undefined);
    },
  );
  return release;
}
