/**
 * Answering a visitor from the inbox, in Chromium, on the production stack (../support/stack.ts) with
 * a local SMTP server (../../support/smtp.ts) catching the mail: a saved answer and a signature made
 * on their page, the answer inserted into a reply and edited, sent by keyboard alone at 375 px; the
 * mail has the text exactly, the reply shows as Sent; a double click sends one mail; a send the
 * service cannot take shows why in an alert and keeps the text; axe at 375 and 1280 px on the enquiry
 * with its reply box and on the saved answers page.
 *
 * The inbox is bundled from the source into the stack's copy of the build (a second), so the page
 * tested is the one in the working tree; a release's build (DEPLOY_PUBLIC_DIR) is tested as built.
 */
import { test, expect, type Browser, type Page } from "@playwright/test";
import { buildInbox } from "../../../src/node/inbox-build";
import { parseMail } from "../../support/mail";
import { startSmtp, type SmtpSink } from "../../support/smtp";
import { acceptInvitation, inviteLink, sendEnquiry } from "../support/inbox-people";
import { startStack, type Stack } from "../support/stack";
import { axeAt, watchedPage } from "./inbox-page-checks";

let smtp: SmtpSink;
let stack: Stack;
let site = "";

const FROM = "Cyrus Research <replies@cro.example>";
const SIGNATURE = "Priya Nair\nClinical operations, Cyrus Research";
const ANSWER_TITLE = "Thanks, quote to follow";
const ANSWER_TEXT =
  "Dear {name},\n\nThank you for your enquiry. We will send a quote within two working days.\n\n{signature}";

test.beforeAll(async () => {
  test.setTimeout(120_000);
  smtp = await startSmtp();
  stack = await startStack({
    serviceEnv: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ENQUIRY_REPLY_FROM: FROM },
    prepare: async ({ root, origin }) => {
      if (!process.env.DEPLOY_PUBLIC_DIR) await buildInbox({ publicDir: root });
      site = origin.replace("//127.0.0.1:", "//localhost:");
      return { SITE_URL: site };
    },
  });
  const seed = (name: string, email: string, message: string) => sendEnquiry(stack, { name, email, message });
  await seed("Asha Verma", "asha@sponsor-one.example", "A phase II oncology study at four sites: a quote, please.");
  await seed("Jonas Berg", "jonas@sponsor-two.example", "Bioequivalence study, 24 volunteers.");
  await seed("Meera Iyer", "meera@sponsor-three.example", "A clinical study report for a phase I trial.");
});

test.afterAll(async () => {
  test.setTimeout(30_000);
  await stack?.stop();
  await smtp?.stop();
});

/** A signed-in person's page at 375 px; script errors and CSP violations go to `problems`. */
async function signedIn(browser: Browser, email: string, name: string, problems: string[]): Promise<Page> {
  const page = await watchedPage(browser, problems, { viewport: { width: 375, height: 812 } });
  await acceptInvitation(page, inviteLink({ stack, site }, email, name), name);
  return page;
}

/** The mails the SMTP server received for `to`, read. */
const mailsTo = (to: string) => smtp.messages.filter((m) => m.rcptTo.includes(to)).map((m) => parseMail(m.raw));

test("a saved answer and a signature; the answer inserted, edited and sent by keyboard at 375 px; the mail has the text exactly; Sent; axe", async ({
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  const page = await signedIn(browser, "priya@cro.example", "Priya Nair", problems);

  // The saved answers and signature page, from the header.
  await page.getByRole("link", { name: "Saved answers and signature" }).click();
  await expect(page).toHaveURL(/\/inbox\/\?view=answers$/);
  await expect(page.getByRole("heading", { name: "Saved answers and signature" })).toBeVisible();
  await expect(page.getByText("{name} becomes the visitor's name")).toBeVisible();
  await page.getByLabel(/^Signature/).fill(SIGNATURE);
  await page.getByRole("button", { name: "Save signature" }).click();
  await expect(page.getByRole("status")).toHaveText("Signature saved.");
  await page.getByRole("button", { name: "Add a saved answer" }).click();
  await expect(page.getByLabel("Title", { exact: true })).toBeFocused();
  await page.getByLabel("Title", { exact: true }).fill("Draft title");
  await page.getByLabel("Text", { exact: true }).fill(ANSWER_TEXT);
  await page.getByRole("button", { name: "Save answer" }).click();
  const saved = page.getByTestId("saved-answers");
  await expect(saved.getByRole("heading", { name: "Draft title" })).toBeVisible();
  // Edited: the new title, the same text.
  await page.getByRole("button", { name: 'Edit "Draft title"' }).click();
  await page.getByLabel("Title", { exact: true }).fill(ANSWER_TITLE);
  await page.getByRole("button", { name: "Save answer" }).click();
  await expect(saved.getByRole("heading", { name: ANSWER_TITLE })).toBeVisible();
  await expect(saved.getByRole("heading", { name: "Draft title" })).toHaveCount(0);
  // A second one, deleted after a confirmation.
  await page.getByRole("button", { name: "Add a saved answer" }).click();
  await page.getByLabel("Title", { exact: true }).fill("Not needed");
  await page.getByLabel("Text", { exact: true }).fill("Goodbye, {name}.");
  await page.getByRole("button", { name: "Save answer" }).click();
  await page.getByRole("button", { name: 'Delete "Not needed"' }).click();
  await page.getByRole("button", { name: "Delete it" }).click();
  await expect(page.getByRole("status")).toHaveText('Saved answer "Not needed" deleted.');
  await expect(saved.getByRole("heading", { name: "Not needed" })).toHaveCount(0);
  await axeAt(page, testInfo, "the saved answers page");

  // Back to the list, and the enquiry.
  await page.getByRole("button", { name: "← Back to the list" }).click();
  await page.getByRole("link", { name: "Asha Verma" }).click();
  const reply = page.getByRole("region", { name: "Reply to Asha Verma" });
  await expect(reply.getByTestId("reply-to")).toHaveText("asha@sponsor-one.example");
  const subject = (await reply.getByTestId("reply-subject").textContent()) ?? "";
  expect(subject).toMatch(/^Re: /);
  await expect(reply.getByLabel("Mark as answered")).toBeChecked();

  // Keyboard alone: the saved answer chosen and inserted, then edited where the cursor is left.
  const box = reply.getByLabel("Your reply");
  await reply.getByLabel("Insert a saved answer").focus();
  await page.keyboard.press("ArrowDown");
  await expect(reply.getByLabel("Insert a saved answer")).toHaveValue(/.+/);
  await page.keyboard.press("Tab");
  await expect(reply.getByRole("button", { name: "Insert" })).toBeFocused();
  await page.keyboard.press("Enter");
  const filled =
    "Dear Asha Verma,\n\nThank you for your enquiry. We will send a quote within two working days.\n\n" + SIGNATURE;
  await expect(box).toHaveValue(filled);
  await expect(box).toBeFocused();
  // The cursor is after the inserted text: the P.S. goes at the end; then a word at the very start.
  await page.keyboard.type("\n\nP.S. Four sites is no problem.");
  await page.keyboard.press("Control+Home");
  await page.keyboard.type("Hello again. ");
  const text = `Hello again. ${filled}\n\nP.S. Four sites is no problem.`;
  await expect(box).toHaveValue(text);
  await axeAt(page, testInfo, "an enquiry's reply box");
  await box.focus();
  await page.keyboard.press("Tab");
  await expect(reply.getByLabel("Mark as answered")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(reply.getByRole("button", { name: "Send" })).toBeFocused();
  await page.keyboard.press("Enter");

  // The mail: to the visitor, from the company, under the subject shown, the text exactly (then the quote).
  await expect.poll(() => mailsTo("asha@sponsor-one.example").length, { timeout: 15_000 }).toBe(1);
  const [mail] = mailsTo("asha@sponsor-one.example");
  expect(mail!.header("subject")).toBe(subject);
  expect(mail!.header("from")).toContain("replies@cro.example");
  expect(mail!.text.slice(0, text.length + 5)).toBe(`${text}\n\nOn `);
  expect(mail!.text).toContain("> A phase II oncology study at four sites: a quote, please.");

  // The draft is cleared; the reply is in the Replies, Sent once the page has heard; marked answered.
  await expect(box).toHaveValue("");
  const replies = page.getByTestId("replies");
  await expect(replies.locator("li")).toHaveCount(1);
  await expect(replies).toContainText("Hello again. Dear Asha Verma,");
  await expect(replies.locator(".inbox-reply-state")).toHaveText("Sent", { timeout: 15_000 });
  await expect(page.getByTestId("work-status")).toHaveText("answered");
  await page.reload();
  await expect(page.getByTestId("replies").locator(".inbox-reply-state")).toHaveText("Sent");
  expect(mailsTo("asha@sponsor-one.example")).toHaveLength(1);
  expect(problems).toEqual([]);
});

test("a double click sends one mail; unchecked, the status stays; a send the service cannot take is shown in an alert and the text is kept", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const problems: string[] = [];
  const page = await signedIn(browser, "ravi@cro.example", "Ravi Rao", problems);
  await page.getByRole("link", { name: "Jonas Berg" }).click();
  const reply = page.getByRole("region", { name: "Reply to Jonas Berg" });
  const box = reply.getByLabel("Your reply");
  await box.fill("We can start in March. Which dates suit you?");
  await reply.getByLabel("Mark as answered").uncheck();
  await reply.getByRole("button", { name: "Send" }).dblclick();
  const replies = page.getByTestId("replies");
  await expect(replies.locator(".inbox-reply-state")).toHaveText("Sent", { timeout: 15_000 });
  await expect(replies.locator("li")).toHaveCount(1);
  expect(mailsTo("jonas@sponsor-two.example")).toHaveLength(1);
  await expect(page.getByTestId("work-status")).toHaveText("new");

  // The service is down: nginx answers instead; the alert beside Send says so, the text stays.
  await page.getByRole("link", { name: "Enquiries" }).click();
  await page.getByRole("link", { name: "Meera Iyer" }).click();
  const meera = page.getByRole("region", { name: "Reply to Meera Iyer" });
  const words = "Our medical writers can take this on.\nA draft in three weeks.";
  await meera.getByLabel("Your reply").fill(words);
  await stack.stopService();
  try {
    await meera.getByRole("button", { name: "Send" }).click();
    await expect(meera.getByRole("alert")).toHaveText(/^Not sent: .+/);
    await expect(meera.getByLabel("Your reply")).toHaveValue(words);
  } finally {
    await stack.startService();
  }
  // Sent again once the service is back: one mail, the alert gone.
  await meera.getByRole("button", { name: "Send" }).click();
  await expect(page.getByTestId("replies").locator(".inbox-reply-state")).toHaveText("Sent", { timeout: 15_000 });
  await expect(meera.getByRole("alert")).toHaveText("");
  const sent = mailsTo("meera@sponsor-three.example");
  expect(sent).toHaveLength(1);
  expect(sent[0]!.text.startsWith(`${words}\n\nOn `)).toBe(true);
  expect(problems).toEqual([]);
});
