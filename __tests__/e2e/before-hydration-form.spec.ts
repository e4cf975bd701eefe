/**
 * The contact form before its scripts arrive (a slow phone): every script of the site is held back
 * by route interception, so the page is only its server HTML until the test lets them through.
 * - Sent before hydration, the browser posts the form itself: stored once, the result page shown;
 *   that page has no script (it needs none), so letting the scripts through changes nothing and
 *   raises no console error.
 * - Typed before hydration and sent after it: nothing typed is lost, and the script sends the JSON.
 */
import { formFields as fields, formText as text, HONEYPOT, isEnquiry, storedEnquiries } from "./support/enquiry-form";
import {
  at,
  axe,
  dependsOnServer,
  env,
  expect,
  holdScripts,
  pageScripts,
  sharedTabTest as test,
  waitForHydration,
} from "./support/fixtures";

const storedWith = (email: string) => storedEnquiries(env("E2E_ENQUIRY_DIR")).filter((e) => e.email === email);

test(
  "sent before the scripts arrive: the browser posts it, stored once; the result page runs no script",
  dependsOnServer(at(375, 1280)),
  async ({ page, problems }, testInfo) => {
    const scripts = await holdScripts(page);
    await page.goto("/contact", { waitUntil: "commit" });
    const f = fields(page);
    await expect(f.submit).toBeVisible();
    await expect.poll(scripts.held, { message: "the page's scripts are being held" }).toBeGreaterThan(0);
    await expect(f.form).not.toHaveAttribute("novalidate", "");

    const email = `held-${testInfo.project.name}-${Date.now()}@example.com`;
    await f.name.fill("Slow Phone");
    await f.email.fill(email);
    await f.message.fill("Sent before the scripts arrived.");
    const [post] = await Promise.all([page.waitForRequest(isEnquiry), f.submit.click()]);
    expect(new URLSearchParams(post.postData() ?? "").get(HONEYPOT), "the honeypot is posted empty").toBe("");
    await expect(page).toHaveURL(/\/contact\/sent$/);
    await expect(page.getByText(text.successMessage!, { exact: true })).toBeVisible();
    expect(storedWith(email)).toHaveLength(1);
    expect(await axe(page, testInfo, "/contact/sent (before hydration)"), "axe violations").toEqual([]);

    await scripts.release();
    expect(await pageScripts(page), "scripts of the result page").toEqual([]);
    await expect(page.getByText(text.successMessage!, { exact: true })).toBeVisible();
    expect(problems.consoleErrors, "console errors").toEqual([]);
  },
);

test(
  "typed before the scripts arrive, sent after hydration: nothing typed is lost and the JSON request carries it",
  dependsOnServer(at(375, 1280)),
  async ({ page, problems }, testInfo) => {
    const scripts = await holdScripts(page);
    await page.goto("/contact", { waitUntil: "commit" });
    const f = fields(page);
    await expect(f.name).toBeVisible();
    const email = `typed-early-${testInfo.project.name}-${Date.now()}@example.com`;
    await f.name.fill("Early Typist");
    await f.email.fill(email);

    await scripts.release();
    await waitForHydration(page);
    await expect(f.form).toHaveAttribute("novalidate", "");
    await f.message.fill("Typed after hydration.");
    await expect(f.name).toHaveValue("Early Typist");

    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/email"),
      f.submit.click(),
    ]);
    expect(response.status()).toBe(201);
    expect(response.request().postDataJSON()).toEqual({
      name: "Early Typist",
      phone: "",
      email,
      message: "Typed after hydration.",
      [HONEYPOT]: "",
    });
    await expect(page.getByRole("status")).toHaveText(text.successMessage!);
    expect(storedWith(email)).toHaveLength(1);
    problems.expectNone();
  },
);

test(
  "the three result pages, as a browser without scripts shows them, have no axe violations",
  at(375, 1280),
  async ({ page }, testInfo) => {
    await holdScripts(page);
    for (const outcome of ["sent", "error", "incomplete"] as const) {
      await page.goto(`/contact/${outcome}`, { waitUntil: "commit" });
      const message = { sent: text.successMessage, error: text.errorMessage, incomplete: text.requiredMessage }[
        outcome
      ]!;
      await expect(page.getByText(message, { exact: true })).toBeVisible();
      expect(await axe(page, testInfo, `/contact/${outcome} (before hydration)`), "axe violations").toEqual([]);
    }
  },
);
