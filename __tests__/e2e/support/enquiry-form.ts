/** The contact form as a visitor finds it (by its labels), and the enquiries a receiver stored. */
import fs from "node:fs";
import path from "node:path";
import type { Page, Request } from "@playwright/test";
import { contact } from "./content";

export const formText = contact.form;

export const isEnquiry = (request: Request) => new URL(request.url()).pathname === "/api/email";

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
  };
}

/** The lines of enquiries.jsonl in a receiver's data folder ([] before the first). */
export function storedEnquiries(dir: string): Array<Record<string, string>> {
  const file = path.join(dir, "enquiries.jsonl");
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string>);
}
