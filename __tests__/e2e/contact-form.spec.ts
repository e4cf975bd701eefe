/**
 * The contact form against the site's own receiver (`gatsby serve` running src/api/email.ts):
 * the validation message with no request sent, success with the fields emptied and the enquiry
 * stored on disk, and an error when the receiver refuses (a second served instance whose rate limit
 * is one enquiry per client, already used), with the values kept. axe-core checks the page showing
 * each message.
 */
import {
  expectHoneypotHidden,
  formFields as fields,
  formText as text,
  HONEYPOT,
  isEnquiry,
  storedEnquiries,
} from "./support/enquiry-form";
import { at, axe, dependsOnServer, env, expect, open, sharedTabTest as test } from "./support/fixtures";

test(
  "an empty required field shows the validation message and sends no request",
  at(375, 1280),
  async ({ page }, testInfo) => {
    const sent: string[] = [];
    page.on("request", (request) => {
      if (isEnquiry(request)) sent.push(request.url());
    });
    await open(page, "/contact");
    const f = fields(page);
    await expect(f.email).toHaveAttribute("type", "email");
    for (const field of [f.name, f.email, f.message]) await expect(field).toHaveAttribute("required", "");
    await expect(f.phone).not.toHaveAttribute("required", "");

    await f.submit.click();
    await expect(f.status).toHaveText(text.requiredMessage!);
    await expect(f.name, "focus goes to the first empty field").toBeFocused();
    await expect(f.name).toHaveAttribute("aria-invalid", "true");

    // Blank (spaces only) counts as empty; the phone stays optional.
    await f.name.fill("   ");
    await f.email.fill("visitor@example.com");
    await f.message.fill("Hello");
    await f.submit.click();
    await expect(f.status).toHaveText(text.requiredMessage!);
    await expect(f.email).toHaveValue("visitor@example.com");

    expect(await axe(page, testInfo, "/contact (validation message)"), "axe violations").toEqual([]);
    await page.waitForTimeout(300); // a request, had one been started, would have shown by now
    expect(sent, "no request was sent").toEqual([]);
  },
);

test(
  "a valid enquiry is stored, the success message shows and the fields are emptied",
  dependsOnServer(at(375, 1280)),
  async ({ page }, testInfo) => {
    await open(page, "/contact");
    const f = fields(page);
    const unique = `${testInfo.project.name}-${Date.now()}`;
    const enquiry = {
      name: "Priya Raman",
      phone: "+91 98765 43210",
      email: `e2e-${unique}@example.com`,
      message: `Browser test ${unique}: Phase II study enquiry.`,
    };
    await f.name.fill(enquiry.name);
    await f.phone.fill(enquiry.phone);
    await f.email.fill(enquiry.email);
    await f.message.fill(enquiry.message);

    const [response] = await Promise.all([page.waitForResponse((r) => isEnquiry(r.request())), f.submit.click()]);
    expect(response.status()).toBe(201);
    // A person's enquiry: the four fields, and the spam screening's honeypot empty.
    expect(response.request().postDataJSON()).toEqual({ ...enquiry, [HONEYPOT]: "" });
    await expect(f.status).toHaveText(text.successMessage!);
    for (const field of [f.name, f.phone, f.email, f.message]) await expect(field).toHaveValue("");
    await expect(f.submit).toBeEnabled();

    const stored = storedEnquiries(env("E2E_ENQUIRY_DIR")).filter((e) => e.email === enquiry.email);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      ...enquiry,
      screening: { verdict: "clean", signals: [] },
      delivery: "stored-only",
    });
    expect(stored[0]).not.toHaveProperty(HONEYPOT);

    expect(await axe(page, testInfo, "/contact (success message)"), "axe violations").toEqual([]);
  },
);

test(
  "when the receiver refuses, the error message shows and the values are kept",
  dependsOnServer(at(375, 1280)),
  async ({ page, request }, testInfo) => {
    const origin = env("E2E_REFUSING_URL");
    const dir = env("E2E_REFUSING_ENQUIRY_DIR");
    // This receiver takes one enquiry per client an hour: use it up (201 the first time, 429 after).
    // Each attempt sends its own text: an identical resend would be answered 200 as a duplicate.
    const first = await request.post(`${origin}/api/email`, {
      data: {
        name: "Rate limit",
        phone: "",
        email: `limit-${testInfo.project.name}-${Date.now()}@example.com`,
        message: "Uses up the allowance.",
      },
    });
    expect([201, 429]).toContain(first.status());

    await open(page, `${origin}/contact`);
    const f = fields(page);
    const unique = `${testInfo.project.name}-${Date.now()}`;
    const values = {
      name: "Arun Kumar",
      phone: "044 1234 5678",
      email: `refused-${unique}@example.com`,
      message: `Refused ${unique}`,
    };
    await f.name.fill(values.name);
    await f.phone.fill(values.phone);
    await f.email.fill(values.email);
    await f.message.fill(values.message);

    const [response] = await Promise.all([page.waitForResponse((r) => isEnquiry(r.request())), f.submit.click()]);
    expect(response.status(), "the real receiver refuses: rate limited").toBe(429);
    expect(response.headers()["retry-after"]).toMatch(/^\d+$/);
    await expect(f.status).toHaveText(text.errorMessage!);
    await expect(f.name).toHaveValue(values.name);
    await expect(f.phone).toHaveValue(values.phone);
    await expect(f.email).toHaveValue(values.email);
    await expect(f.message).toHaveValue(values.message);
    await expect(f.submit).toBeEnabled();
    expect(
      storedEnquiries(dir).filter((e) => e.email === values.email),
      "a refused enquiry is not stored",
    ).toEqual([]);

    expect(await axe(page, testInfo, "/contact (error message)"), "axe violations").toEqual([]);
  },
);

test(
  "the spam screening's honeypot is out of sight, out of the accessibility tree and out of the Tab order",
  at(375, 1280),
  async ({ page }, testInfo) => {
    await open(page, "/contact");
    await expectHoneypotHidden(page);
    expect(await axe(page, testInfo, "/contact (hydrated form)"), "axe violations").toEqual([]);
  },
);
