/**
 * The pictures of docs/images/inbox/ (`npm run docs:inbox-pictures`), for docs/inbox.md: the list at
 * 1280 px, an enquiry at 1280 px and the list on a phone (375 px). Run it again after the inbox's look
 * changes, and commit the pictures.
 *
 * It needs a build with the inbox (public/inbox/, `npm run build`) and nginx, as the inbox's browser
 * test: the production stack on loopback (nginx and the service, a temporary store, replies set up with
 * a local SMTP server, so an enquiry shows its reply box), invented enquiries
 * sent through the site's endpoint (example addresses, no real company), a person invited with the
 * operator's command, a passkey made by a virtual authenticator, and some work done, so that the
 * pictures show statuses, owners, a note, a flagged enquiry and the median. Everything it starts is
 * stopped and removed at the end (about 30 s). The pictures are palette PNGs: the inbox is flat colour and text,
 * which a palette keeps sharp at a third of the size.
 */
import { chromium, type Page } from "@playwright/test";
import {
  acceptInvitation,
  inviteLink,
  sendEnquiry,
  startInboxStack,
  type SentEnquiry,
} from "../../__tests__/deploy/support/inbox-people";
import { startSmtp } from "../../__tests__/support/smtp";
import { chromePath, chromiumArgs } from "../chromium";
import { LIMIT_MS, picturePage, savePicture } from "./inbox-picture-kit";

const PHONE = { width: 375, height: 812 };
/** Each picture's most, for the repository. */

/** Oldest first, so the list (newest first) shows them the other way round. */
const ENQUIRIES: SentEnquiry[] = [
  {
    name: "Dr. Asha Verma",
    email: "asha.verma@sponsor-one.example",
    phone: "+91 20 5550 0101",
    message:
      "We are planning a phase II oncology study at four sites in Maharashtra and would like a quote for site monitoring and data management. Protocol synopsis available on request.",
  },
  {
    name: "Jonas Berg",
    email: "j.berg@biotech-two.example",
    message: "Bioequivalence study for a generic tablet, 24 healthy volunteers, fed and fasting. When could you start?",
  },
  {
    name: "Win Big Today",
    email: "offers@promo.example",
    message:
      "Boost your ranking now https://promo.example/a https://promo.example/b https://promo.example/c limited offer!!!",
  },
  {
    name: "Meera Iyer",
    email: "meera.iyer@example.com",
    phone: "+91 80 5550 0144",
    message:
      "Could your medical writers prepare a clinical study report for a completed phase I trial? About 60 subjects, tables ready.",
  },
  {
    name: "Dr. Tomas Lind",
    email: "tomas.lind@devices-three.example",
    message:
      "We need a post-market clinical follow-up for a class II device in India and the EU. Who would be our contact?",
  },
];

/** Opens an enquiry from the list by its name and applies a status and, optionally, a note. */
async function work(page: Page, name: string, steps: { take?: boolean; status?: string; note?: string }) {
  await page.getByRole("link", { name, exact: true }).click();
  const said = page.getByRole("status");
  if (steps.take) {
    await page.getByRole("button", { name: "Take it" }).click();
    await said.getByText("It is yours.").waitFor({ timeout: LIMIT_MS });
  }
  if (steps.note) {
    await page.getByLabel("Internal note (never sent to the visitor)").fill(steps.note);
    await page.getByRole("button", { name: "Add note" }).click();
    await page.getByTestId("notes").getByText(steps.note).waitFor({ timeout: LIMIT_MS });
  }
  if (steps.status) {
    await page.getByLabel("Status", { exact: true }).selectOption(steps.status);
    await page.getByRole("button", { name: "Set status" }).click();
    await page.getByTestId("work-status").getByText(steps.status, { exact: true }).waitFor({ timeout: LIMIT_MS });
  }
}

async function main(): Promise<void> {
  // Replies set up, so the enquiry's page shows its reply box (the replies go to a local SMTP server).
  const smtp = await startSmtp();
  const inbox = await startInboxStack({
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    ENQUIRY_REPLY_FROM: "Cyrus Research <hello@cro.example>",
  }).catch(async (e: unknown) => {
    await smtp.stop();
    throw e;
  });
  const browser = await chromium.launch({ executablePath: chromePath, args: [...chromiumArgs] }).catch(async (e) => {
    await inbox.stack.stop();
    await smtp.stop();
    throw e;
  });
  try {
    for (const enquiry of ENQUIRIES) await sendEnquiry(inbox.stack, enquiry);
    const page = await picturePage(browser);
    await acceptInvitation(page, inviteLink(inbox, "priya@cro.example", "Priya Nair"), "Priya Nair");

    await work(page, "Jonas Berg", { take: true, status: "answered" });
    await page.goBack();
    await work(page, "Meera Iyer", { take: true, status: "in progress" });
    await page.goBack();
    await work(page, "Dr. Asha Verma", {
      take: true,
      status: "in progress",
      note: "Called back on Monday: protocol synopsis expected this week, budget decision in Q1.",
    });
    // The enquiry, whole, as its page shows it (no status message in the way).
    await page.reload();
    await page.getByRole("heading", { name: "History" }).waitFor();
    await savePicture(await page.screenshot({ fullPage: true, animations: "disabled" }), "enquiry.png");

    await page.goBack();
    await page.getByRole("link", { name: "Dr. Tomas Lind" }).waitFor();
    await page.reload();
    await page.locator('.inbox-count-n[data-status="answered"]').getByText("1").waitFor();
    await savePicture(await page.screenshot({ fullPage: true, animations: "disabled" }), "list.png");

    // Whole, as the phone's reader scrolls it: counts, filters, then the list.
    await page.setViewportSize(PHONE);
    await savePicture(await page.screenshot({ fullPage: true, animations: "disabled" }), "list-phone.png");
  } finally {
    await browser.close();
    await inbox.stack.stop();
    await smtp.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
