/**
 * What a studio browser test needs: the real studio (decap-server and the studio built for it) on a
 * COPY of data/ in a temporary folder, started before the file's tests and stopped after; signing in
 * and opening an entry; publishing it; a field's control by its label; a list entry's bar.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startStudio, type RunningStudio } from "../../../../admin/scripts/cms";
import { freePort, projectRoot } from "../../../support/serve";

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
  await page.goto(studio.url);
  const login = page.getByRole("button", { name: "Login" });
  const pages = page.getByRole("link", { name: "Pages" }).first();
  // Signed in already in this browser context (Decap keeps the user in localStorage), or not.
  await expect(login.or(pages)).toBeVisible();
  if (await login.isVisible()) await login.click();
  await expect(pages).toBeVisible();
  await page.goto(`${studio.url}#/collections/${entry}`);
  if (/\/(entries\/|new$)/.test(entry)) await checksReady(page);
}

/**
 * Waits until an entry's editor is shown and its fields have read the other entries they check
 * against (admin/src/refusing-widgets.tsx marks the page meanwhile): a publish before that is refused
 * "in a moment", as an editor would see on a slow connection, which is not what these tests are about.
 */
export async function checksReady(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: /^(Publish|Save|Published)$/ }).first()).toBeVisible();
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
