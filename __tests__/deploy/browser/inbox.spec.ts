/**
 * The enquiry inbox in Chromium, behind nginx with the project's configuration and the standalone
 * service (../support/stack.ts): an operator's `npm run enquiries -- invite` link, the passkey made
 * from it, search, taking an enquiry, a note, answering it, the counts, the CSV export, signing out
 * (the API then answers 401) and in again; two people changing one enquiry; a new enquiry appearing
 * without a reload; "← Back to the list" and erasure from an enquiry's own link (a new tab, another
 * page before it) staying in the inbox; a revoked session shown the sign-in at its first 401; axe at
 * 375 and 1280 px. All under the inbox's own CSP, with no violation.
 *
 * No real authenticator is used: the passkeys are made and used by a virtual one, through the DevTools
 * protocol's WebAuthn domain. No git host, no mail. Passkeys need a secure context and a relying party
 * that is a host name, so the site is reached as http://localhost:<port> and SITE_URL is that.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { test, expect, type Browser, type Page } from "@playwright/test";
import { acceptInvitation, inviteLink, sendEnquiry, startInboxStack, type InboxStack } from "../support/inbox-people";
import { projectRoot } from "../support/stack";
import { axeAt, watchedPage } from "./inbox-page-checks";

let inbox: InboxStack;
let site = "";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  inbox = await startInboxStack();
  site = inbox.site;
  await seed("Ada Quinn", "ada@sponsor-one.example", "A phase II oncology study in Lyon: <b>bold</b> =SUM(A1)");
  await seed("Bo Lind", "bo@sponsor-two.example", "Bioequivalence study for a generic, 24 subjects.");
  await seed("Cy Moreau", "cy@sponsor-three.example", "Medical writing for a clinical study report.");
});

test.afterAll(async () => {
  test.setTimeout(30_000);
  await inbox?.stack.stop();
});

const seed = (name: string, email: string, message: string) => sendEnquiry(inbox.stack, { name, email, message });

const personPage = (browser: Browser, problems: string[]) => watchedPage(browser, problems);

async function welcome(page: Page, email: string, name: string): Promise<void> {
  await acceptInvitation(page, inviteLink(inbox, email, name), name);
  // The token was in the fragment only, and is gone from the address; the welcome is the list's notice.
  expect(page.url()).toBe(`${site}/inbox/`);
  await expect(status(page)).toHaveText(`Welcome, ${name}: your passkey is made.`);
  await expect(page.locator(".inbox-item").first()).toBeVisible();
}

/** The operator's `npm run enquiries -- <args>` against the stack's store. */
function operator(...args: string[]): void {
  const run = spawnSync("npm", ["run", "--silent", "enquiries", "--", ...args], {
    cwd: projectRoot,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, ENQUIRY_DATA_DIR: inbox.stack.dataDir, SITE_URL: site, SMTP_URL: "", ENQUIRY_TO: "" },
  });
  if (run.status !== 0)
    throw new Error(`enquiries ${args.join(" ")} exited ${run.status}:\n${run.stdout}${run.stderr}`);
}

const status = (page: Page) => page.getByRole("status");

test("invite, passkey, search, take, note, answer, counts, export, sign out and in again; axe at 375 and 1280 px", async ({
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const problems: string[] = [];
  const page = await personPage(browser, problems);
  await welcome(page, "ana@cyrus.example", "Ana Admin");

  await page.getByLabel("Search name, e-mail and message").fill("ONCOLOGY lyon");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/\?q=ONCOLOGY\+lyon$/);
  const items = page.locator(".inbox-item");
  await expect(items).toHaveCount(1);
  await expect(items.first()).toContainText("@sponsor-one.example");
  await items.first().getByRole("link", { name: "Ada Quinn" }).click();
  await expect(page).toHaveURL(/\?id=[^&]+&q=ONCOLOGY/);
  // The visitor's markup is shown as the characters typed.
  await expect(page.getByText("A phase II oncology study in Lyon: <b>bold</b> =SUM(A1)")).toBeVisible();
  await expect(page.locator(".inbox-enquiry b")).toHaveCount(0);

  await page.getByRole("button", { name: "Take it" }).click();
  await expect(status(page)).toHaveText("It is yours.");
  await expect(page.getByTestId("work-owner")).toHaveText("Owner: Ana Admin");
  await page.getByLabel("Internal note (never sent to the visitor)").fill("Called back: <i>keen</i>, budget in Q1.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.getByTestId("notes")).toContainText("Called back: <i>keen</i>, budget in Q1.");
  await page.getByLabel("Status", { exact: true }).selectOption("answered");
  await page.getByRole("button", { name: "Set status" }).click();
  await expect(page.getByTestId("work-status")).toHaveText("answered");
  await expect(page.locator(".inbox-history")).toContainText("status: new → answered");
  await axeAt(page, testInfo, "an enquiry");

  // Back to the filtered list, as it was; the counts show it answered.
  await page.goBack();
  await expect(page).toHaveURL(/\/inbox\/\?q=ONCOLOGY\+lyon$/);
  await expect(page.locator('.inbox-count-n[data-status="answered"]')).toHaveText("1");
  await expect(page.locator('.inbox-count-n[data-status="new"]')).toHaveText("2");
  await axeAt(page, testInfo, "the list");

  // The export of what the filters show.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export these as CSV" }).click();
  const csv = fs
    .readFileSync((await (await downloading).path())!, "utf8")
    .trim()
    .split("\r\n");
  expect(csv).toHaveLength(2);
  expect(csv[0]).toMatch(/^"id","receivedAt","name",/);
  expect(csv[1]).toContain("Ada Quinn");
  expect(csv[1]).toContain(',"answered","Ana Admin",');

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  expect((await page.request.get(`${site}/inbox/api/me`)).status()).toBe(401);
  expect((await page.request.get(`${site}/inbox/api/counts`)).status()).toBe(401);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText("Signed in as Ana Admin")).toBeVisible();
  expect((await page.request.get(`${site}/inbox/api/me`)).status()).toBe(200);
  expect(problems).toEqual([]);
});

test("two people change one enquiry: the second is told what it is now and keeps their choice; a new enquiry appears without a reload; keyboard only, spam and erasure", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  const ana = await personPage(browser, problems);
  const ben = await personPage(browser, problems);
  await welcome(ben, "ben@cyrus.example", "Ben Bennett");
  // Each page has its own virtual authenticator: a second person of the inbox for this one.
  await welcome(ana, "ana2@cyrus.example", "Ana Second");

  for (const page of [ana, ben]) await page.getByRole("link", { name: "Bo Lind" }).click();
  await ana.getByLabel("Status", { exact: true }).selectOption("closed");
  await ana.getByRole("button", { name: "Set status" }).click();
  await expect(ana.getByTestId("work-status")).toHaveText("closed");

  await ben.getByLabel("Status", { exact: true }).selectOption("in progress");
  await ben.getByRole("button", { name: "Set status" }).click();
  await expect(status(ben)).toContainText('someone changed this enquiry meanwhile. It is now "closed"');
  await expect(ben.getByTestId("work-status")).toHaveText("closed");
  await expect(ben.getByLabel("Status", { exact: true })).toHaveValue("in progress");
  await ben.getByRole("button", { name: "Set status" }).click();
  await expect(ben.getByTestId("work-status")).toHaveText("in progress");

  // A new enquiry, sent while Ben looks at the list: there within the 10 s poll, no reload.
  await ben.goBack();
  await expect(ben.getByRole("link", { name: "Bo Lind" })).toBeVisible();
  await seed("Dee Newcome", "dee@sponsor-four.example", "A rare disease registry, next month.");
  await expect(ben.getByRole("link", { name: "Dee Newcome" })).toBeVisible({ timeout: 25_000 });

  // Keyboard only: search with Enter (the focus stays in the box), the next control's focus is
  // visible, an enquiry opened with Enter; marked as spam; then erased, confirming how many go.
  const search = ben.getByLabel("Search name, e-mail and message");
  await search.focus();
  await ben.keyboard.type("registry");
  await ben.keyboard.press("Enter");
  await expect(ben.locator(".inbox-item")).toHaveCount(1);
  await expect(search).toBeFocused();
  await ben.keyboard.press("Tab");
  await expect(ben.getByLabel("Status", { exact: true })).toBeFocused();
  await expect(ben.getByLabel("Status", { exact: true })).toHaveCSS("outline-style", "solid");
  await ben.getByRole("link", { name: "Dee Newcome" }).focus();
  await ben.keyboard.press("Enter");
  await ben.getByRole("button", { name: "Spam", exact: true }).press("Enter");
  await expect(ben.getByTestId("work-status")).toHaveText("spam");
  await ben.getByRole("button", { name: "Erase…" }).click();
  await expect(ben.getByText("Erasing removes 1 enquiry of this address")).toBeVisible();
  await ben.getByRole("button", { name: "Erase 1 enquiry" }).click();
  await expect(status(ben)).toHaveText("Erased 1 enquiry of this address.");
  await expect(ben).toHaveURL(/\/inbox\/\?q=registry$/);
  await expect(ben.getByText("No enquiry matches.")).toBeVisible();
  expect(problems).toEqual([]);
});

test("← Back to the list: from the enquiry's own link in a new tab or after another page, the list (never out of the inbox); from the filtered list, that list; after erasing, the list", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  const page = await personPage(browser, problems);
  await welcome(page, "cat@cyrus.example", "Cat Third");
  await seed("Eli Gone", "eli@sponsor-five.example", "A device study, then erase me.");
  const back = (p: Page) => p.getByRole("button", { name: "← Back to the list" });
  // The whole list (the page may be showing a filtered one), new enquiries in it.
  const linkOf = async (name: string) => {
    await page.goto(`${site}/inbox/`);
    return `${site}${await page.getByRole("link", { name }).getAttribute("href")}`;
  };
  const cy = await linkOf("Cy Moreau");
  expect(cy).toMatch(/\/inbox\/\?id=[^&]+$/);

  // The link of the "gave you an enquiry" e-mail, opened in a new tab: Back shows the whole list.
  const tab = await page.context().newPage();
  await tab.goto(cy);
  await back(tab).click();
  await expect(tab).toHaveURL(`${site}/inbox/`);
  await expect(tab.getByRole("link", { name: "Bo Lind" })).toBeVisible();
  // Reached from another page of the site: Back stays in the inbox.
  await tab.goto(`${site}/`);
  await tab.goto(cy);
  await back(tab).click();
  await expect(tab).toHaveURL(`${site}/inbox/`);
  await expect(tab.getByRole("link", { name: "Cy Moreau" })).toBeVisible();

  // Opened from a filtered list: Back is that list, its filters in the address and the form.
  await page.getByLabel("Search name, e-mail and message").fill("medical writing");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await page.getByRole("link", { name: "Cy Moreau" }).click();
  await back(page).click();
  await expect(page).toHaveURL(`${site}/inbox/?q=medical+writing`);
  await expect(page.getByLabel("Search name, e-mail and message")).toHaveValue("medical writing");
  await expect(page.locator(".inbox-item")).toHaveCount(1);

  // Erased from its own link in a new tab: the list, in the inbox, without it.
  const eli = await linkOf("Eli Gone");
  const another = await page.context().newPage();
  await another.goto(eli);
  await another.getByRole("button", { name: "Erase…" }).click();
  await another.getByRole("button", { name: "Erase 1 enquiry" }).click();
  await expect(status(another)).toHaveText("Erased 1 enquiry of this address.");
  await expect(another).toHaveURL(`${site}/inbox/`);
  await expect(another.getByRole("link", { name: "Bo Lind" })).toBeVisible();
  await expect(another.getByRole("link", { name: "Eli Gone" })).toHaveCount(0);
  expect(problems).toEqual([]);
});

test("a session revoked while the page is open: the first click shows the sign-in at once, nothing said done; axe", async ({
  browser,
}, testInfo) => {
  test.setTimeout(60_000);
  const problems: string[] = [];
  const page = await personPage(browser, problems);
  await welcome(page, "dan@cyrus.example", "Dan Fourth");
  // The poll of changes answers as if nothing happened: only the click's own 401 can show the sign-in.
  await page.route("**/inbox/api/changes", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ mark: "held" }) }),
  );
  await page.getByRole("link", { name: "Bo Lind" }).click();
  await expect(page.getByRole("button", { name: "Take it" })).toBeVisible();
  operator("revoke", "dan@cyrus.example");

  await page.getByRole("button", { name: "Take it" }).click();
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
  await expect(page.getByText("Your session has ended: sign in again to go on.")).toBeVisible();
  await expect(status(page)).toHaveText("Not saved: Sign in to the inbox.");
  await expect(page.getByText("Signed in as Dan Fourth")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Take it" })).toHaveCount(0);
  await axeAt(page, testInfo, "the sign-in after the session ended");
  expect(problems).toEqual([]);
});
