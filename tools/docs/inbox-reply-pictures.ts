/**
 * The pictures of replying from the inbox (`npm run docs:inbox-reply-pictures`), for docs/inbox.md:
 * the reply box with a saved answer inserted under a reply already sent (reply.png), and the saved
 * answers and signature page (saved-answers.png), both at 1280 px. Run it again after their look
 * changes, and commit the pictures.
 *
 * As tools/docs/inbox-pictures.ts: the production stack on loopback (nginx and the service, a temporary
 * store) with invented enquiries, a person invited with the operator's command and a passkey of a
 * virtual authenticator; here also a local SMTP server that takes the replies (nothing leaves the
 * machine), and the inbox bundled from the source into the stack's copy of the build, so the pictures
 * show the page as it is now. Everything it starts is stopped and removed at the end (about 30 s).
 */
import { chromium, type Locator, type Page } from "@playwright/test";
import { buildInbox } from "../../src/node/inbox-build";
import {
  acceptInvitation,
  inviteLink,
  sendEnquiry,
  type SentEnquiry,
} from "../../__tests__/deploy/support/inbox-people";
import { startStack } from "../../__tests__/deploy/support/stack";
import { startSmtp } from "../../__tests__/support/smtp";
import { chromePath, chromiumArgs } from "../chromium";
import { DESKTOP, picturePage, savePicture } from "./inbox-picture-kit";

const ENQUIRY: SentEnquiry = {
  name: "Dr. Asha Verma",
  email: "asha.verma@sponsor-one.example",
  phone: "+91 20 5550 0101",
  message:
    "We are planning a phase II oncology study at four sites in Maharashtra and would like a quote for site monitoring and data management. Protocol synopsis available on request.",
};
const SIGNATURE = "Priya Nair\nClinical operations, Cyrus Research\n+91 20 5550 0100";
const ANSWERS = [
  {
    title: "Thank you: quote to follow",
    text: "Dear {name},\n\nThank you for your enquiry. We will send you a quote within two working days.\n\nKind regards,\n{signature}",
  },
  {
    title: "Asking for the protocol synopsis",
    text: "Dear {name},\n\nThank you for writing to us. Could you send us the protocol synopsis, so that we can prepare an accurate quote?\n\nKind regards,\n{signature}",
  },
];

/** The page's picture from the top of `first` to the bottom of `last`, the page's whole width. */
async function between(page: Page, first: Locator, last: Locator): Promise<Buffer> {
  const top = (await first.boundingBox())!;
  const bottom = (await last.boundingBox())!;
  const margin = 16;
  // The boxes are the viewport's; the whole page's picture is clipped in the page's coordinates.
  const scrolled = await page.evaluate(() => window.scrollY);
  const y = Math.max(0, top.y + scrolled - margin);
  return page.screenshot({
    fullPage: true,
    animations: "disabled",
    clip: { x: 0, y, width: DESKTOP.width, height: bottom.y + scrolled + bottom.height + margin - y },
  });
}

async function main(): Promise<void> {
  const smtp = await startSmtp();
  let site = "";
  const stack = await startStack({
    serviceEnv: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, ENQUIRY_REPLY_FROM: "Cyrus Research <hello@cro.example>" },
    prepare: async ({ root, origin }) => {
      await buildInbox({ publicDir: root });
      site = origin.replace("//127.0.0.1:", "//localhost:");
      return { SITE_URL: site };
    },
  }).catch(async (e: unknown) => {
    await smtp.stop();
    throw e;
  });
  const browser = await chromium.launch({ executablePath: chromePath, args: [...chromiumArgs] }).catch(async (e) => {
    await stack.stop();
    await smtp.stop();
    throw e;
  });
  try {
    await sendEnquiry(stack, ENQUIRY);
    const page = await picturePage(browser);
    await acceptInvitation(page, inviteLink({ stack, site }, "priya@cro.example", "Priya Nair"), "Priya Nair");

    // The signature and the saved answers, on their page.
    await page.getByRole("link", { name: "Saved answers and signature" }).click();
    await page.getByLabel(/^Signature/).fill(SIGNATURE);
    await page.getByRole("button", { name: "Save signature" }).click();
    await page.getByRole("status").getByText("Signature saved.").waitFor();
    for (const answer of ANSWERS) {
      await page.getByRole("button", { name: "Add a saved answer" }).click();
      await page.getByLabel("Title", { exact: true }).fill(answer.title);
      await page.getByLabel("Text", { exact: true }).fill(answer.text);
      await page.getByRole("button", { name: "Save answer" }).click();
      await page.getByTestId("saved-answers").getByRole("heading", { name: answer.title }).waitFor();
    }
    await page.reload();
    await page.getByTestId("saved-answers").getByRole("heading", { name: ANSWERS[1]!.title }).waitFor();
    await savePicture(await page.screenshot({ fullPage: true, animations: "disabled" }), "saved-answers.png");

    // A first reply sent, then the second saved answer inserted into the next.
    await page.getByRole("button", { name: "← Back to the list" }).click();
    await page.getByRole("link", { name: ENQUIRY.name }).click();
    const reply = page.getByRole("region", { name: `Reply to ${ENQUIRY.name}` });
    await reply.getByLabel("Insert a saved answer").selectOption({ label: ANSWERS[1]!.title });
    await reply.getByRole("button", { name: "Insert" }).click();
    await reply.getByRole("button", { name: "Send" }).click();
    await page.getByTestId("replies").getByText("Sent", { exact: true }).waitFor();
    await reply.getByLabel("Insert a saved answer").selectOption({ label: ANSWERS[0]!.title });
    await reply.getByRole("button", { name: "Insert" }).click();
    await page.locator("#reply-text").blur();
    await savePicture(await between(page, reply, page.getByTestId("replies")), "reply.png");
  } finally {
    await browser.close();
    await stack.stop();
    await smtp.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
