/**
 * Deleting an entry never leaves a reference to it dangling, whatever the kind: in the real studio
 * against decap-server, on a copy of data/ with an added page at /careers that the menu links to and a
 * page whose text links to a service. Deleting the page the menu links to, the service a text links to
 * and an approval a gallery shows is refused before Decap's confirm, naming each place as the studio
 * shows it, and nothing is written; from the moment Delete is pressed until the answer, the studio says
 * it is checking (decap-server's answers held back meanwhile, as a slow git host's); with the menu's link removed
 * first, the page's deletion goes through
 * and the content check passes on what the studio wrote; the page is opened by its address, its
 * collection's list never loaded, and Decap says nothing false (no "Failed to delete entry").
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { parse, stringify } from "yaml";
import { projectRoot } from "../../support/serve";
import { holdServer, notice, noticeStatus, open as openIn, studioForTests, test } from "./support/studio-session";

test.describe.configure({ mode: "serial" });

const session = studioForTests("studio-deletes");
const open = (page: Page, entry: string) => openIn(page, session.studio, entry);
const dataFile = (file: string) => path.join(session.dir, "data", file);

const service = "study-design";
const approvalOfGallery = () =>
  (parse(session.readText("services/regulatory-approvals.yaml")) as { gallery: string[] }).gallery[0]!;

test.beforeAll(() => {
  const navigation = parse(session.readText("navigation/navigation.yaml")) as { main: object[] };
  navigation.main.push({ label: "Careers", to: "/careers" });
  fs.writeFileSync(dataFile("navigation/navigation.yaml"), stringify(navigation));
  const page = (slug: string, title: string, body: string) =>
    fs.writeFileSync(
      dataFile(`pages/${slug}.yaml`),
      stringify({ slug, title, description: `${title}.`, sections: [{ type: "text", body }] }),
    );
  page("careers", "Careers", "Work with us.");
  page("training", "Training", `We train people: see [study design](/services/${service}).`);
  expectCheckPasses();
});

function expectCheckPasses(): void {
  const run = spawnSync(process.execPath, ["--import", "tsx", "src/scripts/check-content.ts", dataFile("")], {
    cwd: projectRoot,
    encoding: "utf8",
  });
  expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: "" });
}

/**
 * Opens the entry, clicks Delete entry: the studio says it is checking until decap-server answers, then
 * the refusal's words; no confirm, nothing written.
 */
async function expectDeleteRefused(page: Page, entry: string, singular: string, words: string[]): Promise<void> {
  const confirms: string[] = [];
  page.on("dialog", (dialog) => {
    confirms.push(dialog.message());
    void dialog.accept();
  });
  await open(page, entry);
  const before = session.snapshot();
  const answer = await holdServer(page, session.studio.apiUrl);
  await page.getByRole("button", { name: "Delete entry" }).click();
  await expect(noticeStatus(page)).toHaveText(`Checking what names this ${singular} before deleting it…`);
  await expect(noticeStatus(page)).toBeInViewport();
  await expect(notice(page)).toHaveCount(0);
  answer();
  const refusal = notice(page).getByText(/remove it there first, then delete it\.$/);
  await expect(refusal).toBeVisible();
  await expect(noticeStatus(page)).toBeEmpty();
  for (const part of words) await expect(refusal).toContainText(part);
  expect(confirms).toEqual([]);
  // A deletion that was not refused would have happened by now (well under a second here).
  await page.waitForTimeout(1000);
  expect(session.snapshot()).toEqual(before);
}

test("a page the menu links to is not deleted: the menu's link is named", async ({ page }) => {
  await expectDeleteRefused(page, "added-pages/entries/careers", "page", [
    'Site and menu → Navigation → Main → item 7 "Careers" → To links to this page (data/navigation/navigation.yaml)',
  ]);
});

test("a service a page's text links to is not deleted: the text is named, with the Services menu", async ({ page }) => {
  await expectDeleteRefused(page, `services/entries/${service}`, "service", [
    "Added pages → Training → Sections → item 1 (Text)",
    "→ Body links to this service (data/pages/training.yaml)",
    "Site and menu → Navigation → Services menu lists this service (data/navigation/navigation.yaml)",
  ]);
});

test("an approval a gallery shows is not deleted: the gallery is named", async ({ page }) => {
  await expectDeleteRefused(page, `approvals/entries/${approvalOfGallery()}`, "approval", [
    "Services → Regulatory Approvals → Gallery lists this approval (data/services/regulatory-approvals.yaml)",
  ]);
});

test("with the menu's link removed first, the page opened by its address is deleted, and the check passes", async ({
  page,
}) => {
  const navigation = parse(session.readText("navigation/navigation.yaml")) as { main: Array<{ to: string }> };
  navigation.main = navigation.main.filter((m) => m.to !== "/careers");
  fs.writeFileSync(dataFile("navigation/navigation.yaml"), stringify(navigation));
  page.on("dialog", (dialog) => void dialog.accept());
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  // Opened by its address, the Added pages list never loaded in this page (a bookmark, the browser's
  // Back): Decap deleted the file, then said "Failed to delete entry: TypeError …" over an emptied form
  // (admin/scripts/decap-fixes.ts).
  await open(page, "added-pages/entries/careers");
  await page.getByRole("button", { name: "Delete entry" }).click();
  await expect.poll(() => fs.existsSync(dataFile("pages/careers.yaml"))).toBe(false);
  // Decap goes back to the collection's list, which no longer has the page, and says nothing false.
  await expect(page).toHaveURL(/#\/collections\/added-pages$/);
  await expect(page.getByRole("link", { name: /Training/ }).first()).toBeVisible();
  await expect(page.getByRole("link", { name: /^Careers/ })).toHaveCount(0);
  await expect(page.getByText(/Failed to delete|remove it there first/)).toHaveCount(0);
  expect(errors.filter((e) => /TypeError|delete/i.test(e))).toEqual([]);
  expectCheckPasses();
});
