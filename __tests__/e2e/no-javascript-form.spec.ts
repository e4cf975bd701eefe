/**
 * The contact form with JavaScript off (projects nojs-375 and nojs-1280): a plain HTML form that
 * the browser validates and posts itself; the receiver stores the enquiry once and answers with a
 * page showing the form's own message. Against `gatsby serve` (the Gatsby Function) and, with
 * `npm run test:e2e:nginx`, against nginx and the standalone service. (axe-core cannot run where
 * JavaScript is off; before-hydration-form.spec.ts checks these pages with the site's scripts held back.)
 */
import type { Page } from "@playwright/test";
import { enquiryResults } from "./support/content";
import {
  expectHoneypotHidden,
  formFields as fields,
  formText as text,
  HONEYPOT,
  isEnquiry,
  storedEnquiries as stored,
} from "./support/enquiry-form";
import { dependsOnServer, env, expect, noJsAt, sharedTabTest as test } from "./support/fixtures";

const noJs = noJsAt(375, 1280);

async function openContact(page: Page, origin = "") {
  const response = await page.goto(`${origin}/contact`);
  expect(response?.status()).toBe(200);
  return fields(page);
}

test.describe("the enquiry form without JavaScript", () => {
  test(
    "is a plain form: posts to /api/email; the browser's own checks stop an empty or malformed submit",
    noJs,
    async ({ page }) => {
      const sent: string[] = [];
      page.on("request", (request) => {
        if (isEnquiry(request)) sent.push(request.url());
      });
      const f = await openContact(page);
      await expect(f.form).toHaveAttribute("action", "/api/email");
      await expect(f.form).toHaveAttribute("method", "post");
      await expect(f.form).not.toHaveAttribute("novalidate", "");

      await f.submit.click();
      await expect(page).toHaveURL(/\/contact$/);
      expect(await f.name.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);

      await f.name.fill("Priya Raman");
      await f.email.fill("not an address");
      await f.message.fill("Hello");
      await f.submit.click();
      await expect(page).toHaveURL(/\/contact$/);
      expect(await f.email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
      expect(sent, "the browser sent nothing").toEqual([]);
    },
  );

  test(
    "a valid enquiry is stored once and the visitor lands on /contact/sent with the success message",
    dependsOnServer(noJs),
    async ({ page }, testInfo) => {
      const f = await openContact(page);
      const unique = `${testInfo.project.name}-${Date.now()}`;
      const values = {
        name: "Priya Raman",
        phone: "+91 98765 43210",
        email: `nojs-${unique}@example.com`,
        message: `No JavaScript ${unique}:\nphase II enquiry.`,
      };
      await f.name.fill(values.name);
      await f.phone.fill(values.phone);
      await f.email.fill(values.email);
      await f.message.fill(values.message);

      const [post] = await Promise.all([page.waitForRequest(isEnquiry), f.submit.click()]);
      expect(post.method()).toBe("POST");
      expect(post.headers()["content-type"]).toMatch(/^application\/x-www-form-urlencoded/);
      // The browser posts every field of the form: the honeypot too, empty.
      const posted = new URLSearchParams(post.postData() ?? "");
      expect([...posted.keys()]).toEqual(["name", "phone", "email", "message", HONEYPOT]);
      expect(posted.get(HONEYPOT)).toBe("");
      await expect(page).toHaveURL(/\/contact\/sent$/);
      expect(page.url(), "no personal data in the address").not.toMatch(/nojs-|Priya|98765/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(enquiryResults.heading);
      await expect(page.getByText(text.successMessage!, { exact: true })).toBeVisible();
      await expect(page).toHaveTitle(new RegExp(`^${enquiryResults.sent.title}`));

      const copies = stored(env("E2E_ENQUIRY_DIR")).filter((e) => e.email === values.email);
      expect(copies).toHaveLength(1);
      expect(copies[0]).toMatchObject({
        ...values,
        screening: { verdict: "clean", signals: [] },
        delivery: "stored-only",
      });
      expect(copies[0]).not.toHaveProperty(HONEYPOT);

      await page.getByRole("link", { name: enquiryResults.backLink }).click();
      await expect(page).toHaveURL(/\/contact$/);
    },
  );

  test(
    "the spam screening's honeypot is out of sight, out of the accessibility tree and out of the Tab order",
    noJs,
    async ({ page }) => {
      await openContact(page);
      await expectHoneypotHidden(page);
    },
  );

  test(
    "a blank required field (spaces pass the browser's check) lands on /contact/incomplete; nothing stored",
    dependsOnServer(noJs),
    async ({ page }, testInfo) => {
      const f = await openContact(page);
      const email = `nojs-blank-${testInfo.project.name}-${Date.now()}@example.com`;
      await f.name.fill("   ");
      await f.email.fill(email);
      await f.message.fill("A message without a name.");
      await f.submit.click();
      await expect(page).toHaveURL(/\/contact\/incomplete$/);
      await expect(page.getByText(text.requiredMessage!, { exact: true })).toBeVisible();
      expect(stored(env("E2E_ENQUIRY_DIR")).filter((e) => e.email === email)).toEqual([]);
    },
  );

  test(
    "when the receiver refuses, the visitor lands on /contact/error with the error message; nothing stored",
    dependsOnServer(noJs),
    async ({ page, request }, testInfo) => {
      const origin = env("E2E_REFUSING_URL");
      // This receiver takes one enquiry per client an hour: use it up (201 the first time, 429 after).
      const first = await request.post(`${origin}/api/email`, {
        data: {
          name: "Rate limit",
          phone: "",
          email: "limit@example.com",
          message: `Uses up the allowance ${testInfo.project.name} ${Date.now()}`,
        },
      });
      expect([201, 429]).toContain(first.status());

      const f = await openContact(page, origin);
      const email = `nojs-refused-${testInfo.project.name}-${Date.now()}@example.com`;
      await f.name.fill("Arun Kumar");
      await f.email.fill(email);
      await f.message.fill("Refused, then shown the error page.");
      await f.submit.click();
      await expect(page).toHaveURL(/\/contact\/error$/);
      await expect(page.getByText(text.errorMessage!, { exact: true })).toBeVisible();
      expect(stored(env("E2E_REFUSING_ENQUIRY_DIR")).filter((e) => e.email === email)).toEqual([]);
    },
  );
});
