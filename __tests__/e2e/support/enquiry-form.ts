/** The contact form as a visitor finds it (by its labels), and the enquiries a receiver stored. */
import { expect, type Page, type Request } from "@playwright/test";
import { readStoredLinesNow } from "../../../src/site-service";
import { contact } from "./content";

export const formText = contact.form;

export const isEnquiry = (request: Request) => new URL(request.url()).pathname === "/api/email";

/** The spam screening's honeypot: hidden from people, sent empty with a person's enquiry. */
export const HONEYPOT = "cyrus_confirm_field";

export function formFields(page: Page) {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: formText.submit }) });
  return {
    form,
    name: form.getByLabel(formText.nameLabel!, { exact: true }),
    phone: form.getByLabel(`${formText.phoneLabel} ${formText.phoneHint}`),
    email: form.getByLabel(formText.emailLabel!, { exact: true }),
    message: form.getByLabel(formText.messageLabel!, { exact: true }),
    submit: form.getByRole("button", { name: formText.submit }),
    status: form.getByRole("status"),
    honeypot: form.locator(`input[name="${HONEYPOT}"]`),
  };
}

/**
 * The honeypot as a person meets it, that is, not at all: not seen (a clipped 1 px box), not in the
 * accessibility tree, never reached by Tab from the first field to the button. Works with and
 * without JavaScript (Playwright's own scripts run either way).
 */
export async function expectHoneypotHidden(page: Page) {
  const f = formFields(page);
  await expect(f.honeypot).toHaveCount(1);
  await expect(f.honeypot).toHaveValue("");
  const box = await f.honeypot.evaluate((el) => {
    const wrapper = el.parentElement!;
    const r = wrapper.getBoundingClientRect();
    return { width: r.width, height: r.height, clip: getComputedStyle(wrapper).clipPath };
  });
  expect(box.width).toBeLessThanOrEqual(1);
  expect(box.height).toBeLessThanOrEqual(1);
  expect(box.clip).toBe("inset(50%)");
  expect(await f.form.ariaSnapshot()).not.toContain(formText.honeypotLabel!);
  await expect(page.getByRole("textbox", { name: formText.honeypotLabel! })).toHaveCount(0);

  await f.name.focus();
  const stops: string[] = [];
  for (let i = 0; i < 8; i += 1) {
    stops.push(
      await page.evaluate(() => document.activeElement?.getAttribute("name") ?? document.activeElement?.tagName ?? ""),
    );
    if (stops.at(-1) === "BUTTON") break;
    await page.keyboard.press("Tab");
  }
  expect(stops).toEqual(["name", "phone", "email", "message", "BUTTON"]);
}

/** The stored lines of a receiver's store in its data folder ([] before the first). */
export function storedEnquiries(dir: string): Array<Record<string, string>> {
  return readStoredLinesNow(dir);
}
