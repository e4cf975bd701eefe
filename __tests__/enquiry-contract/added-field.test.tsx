/**
 * @jest-environment jsdom
 *
 * A field added to the enquiry's definition (src/enquiry-contract/enquiry-fields.ts), and nothing
 * else changed in the code, reaches every part: the form (its input, limit, required check and JSON
 * body), the receiver's validation, the stored line, the e-mail, the duplicate key and
 * `enquiries list`; lines stored before it was added read with it empty.
 *
 * What stays written by hand for a real field, and is stood in for here: its label's text in
 * data/contact/contact.yaml `form`, the label's entry in data/schemas/contact.schema.json, and the
 * label in the page query of src/pages/contact.tsx (a GraphQL query is static; a missing one fails
 * the typecheck, and definition.test.ts checks the three against the definition).
 */
import fs from "node:fs";
import path from "node:path";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { EnquiryForm, type EnquiryFormText } from "../../src/components/enquiry-form/enquiry-form";
import { runEnquiriesCli } from "../../src/site-service/enquiries/cli/cli";
import { loadConfig } from "../../src/site-service/enquiries/core/config";
import { createReceiver } from "../../src/site-service/enquiries/core/receiver";
import { composeMessage, type Mailer } from "../../src/site-service/enquiries/mail/mailer";
import { content } from "../support/content";
import { memoryLog, projectRoot, tempDir } from "../site-service/support/harness";

// The change a developer would make: one entry (here before the message), and the version raised.
jest.mock("../../src/enquiry-contract/enquiry-fields", () => {
  const actual = jest.requireActual("../../src/enquiry-contract/enquiry-fields");
  const company = {
    kind: "text",
    required: true,
    maxLength: 120,
    label: "companyLabel",
    caption: "Company",
    autoComplete: "organization",
    since: 4,
  };
  const fields = actual.ENQUIRY_FIELDS as Record<string, { kind: string }>;
  const entries = Object.entries(fields).flatMap(([key, spec]) =>
    key === "message" ? [["company", company] as const, [key, spec] as const] : [[key, spec] as const],
  );
  for (const key of Object.keys(fields)) delete fields[key];
  Object.assign(fields, Object.fromEntries(entries));
  // The lists the definition derives from its entries when it loads, derived again.
  const keys = Object.keys(fields);
  actual.FORM_FIELD_NAMES.splice(0, Infinity, ...keys);
  actual.ENQUIRY_FIELD_NAMES.splice(0, Infinity, ...keys.filter((key) => fields[key]!.kind !== "honeypot"));
  return { ...actual, ENQUIRY_VERSION: 4 };
});

const text = { ...content.contact.form, companyLabel: "Company name" } as unknown as EnquiryFormText;
const typed = {
  name: "Asha Raman",
  phone: "+91 44 0000 0000",
  email: "asha@example.com",
  company: "  Chennai Biologics Pvt Ltd ",
  message: "We plan a phase II study.",
};

let dir: string;
let fetchMock: jest.Mock;
beforeEach(() => {
  dir = tempDir();
  fetchMock = jest.fn(async () => ({ ok: true, status: 201 }) as Response);
  global.fetch = fetchMock as unknown as typeof fetch;
});
const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((receiver) => receiver.close()));
  fs.rmSync(dir, { recursive: true, force: true });
});

function receiverWithMail() {
  const mails: string[] = [];
  const mailer: Mailer = {
    async send(enquiry) {
      mails.push(String(composeMessage(enquiry, "desk@cyrus.example", "desk@cyrus.example").text));
      return { messageId: "m" };
    },
  };
  const receiver = createReceiver(loadConfig({ ENQUIRY_DATA_DIR: dir }, projectRoot), { mailer, log: memoryLog() });
  opened.push(receiver);
  const post = (body: string) =>
    receiver.handleEnquiry({
      method: "POST",
      headers: { "content-type": "application/json" },
      rawBody: Buffer.from(body),
      clientAddress: "127.0.0.1",
    });
  return { receiver, mails, post };
}

async function fillForm(values: Record<string, string>) {
  const user = userEvent.setup();
  render(<EnquiryForm text={text} endpoint="/api" />);
  for (const [label, value] of [
    ["Name", values.name],
    [/^Phone/, values.phone],
    ["Email *", values.email],
    ["Company name", values.company],
    ["Message", values.message],
  ] as const) {
    if (value) await user.type(screen.getByLabelText(label), value);
  }
  await user.click(screen.getByRole("button", { name: "Send" }));
}

test("the form: its input in the definition's place, with its limit, autocomplete and required check", async () => {
  await fillForm({ ...typed, company: "   " });
  const inputs = [...document.querySelectorAll("input, textarea")].map((e) => e.getAttribute("name"));
  expect(inputs).toEqual(["name", "phone", "email", "company", "message", "cyrus_confirm_field"]);
  const company = screen.getByLabelText("Company name");
  expect(company).toHaveAttribute("type", "text");
  expect(company).toHaveAttribute("maxLength", "120");
  expect(company).toHaveAttribute("autoComplete", "organization");
  expect(company).toBeRequired();
  expect(screen.getByRole("status")).toHaveTextContent("Please fill in all required fields.");
  expect(company).toHaveAttribute("aria-invalid", "true");
  expect(fetchMock).not.toHaveBeenCalled();
});

test("sent, validated, stored, e-mailed, recognised when sent again, and listed", async () => {
  await fillForm(typed);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  const body = String((fetchMock.mock.calls[0] as [string, RequestInit])[1].body);
  expect(JSON.parse(body)).toEqual({ ...typed, company: "Chennai Biologics Pvt Ltd", cyrus_confirm_field: "" });
  expect(Object.keys(JSON.parse(body) as object)).toEqual([
    "name",
    "phone",
    "email",
    "company",
    "message",
    "cyrus_confirm_field",
  ]);

  const { receiver, mails, post } = receiverWithMail();
  const answer = await post(body);
  expect(answer.status).toBe(201);
  const { id } = JSON.parse(answer.body) as { id: string };
  await receiver.drain();

  const [stored] = await receiver.store.storedLines();
  expect(Object.keys(stored!)).toEqual([
    "v",
    "id",
    "receivedAt",
    "name",
    "phone",
    "email",
    "company",
    "message",
    "screening",
    "delivery",
  ]);
  expect(stored).toMatchObject({ v: 4, id, company: "Chennai Biologics Pvt Ltd" });

  expect(mails).toHaveLength(1);
  expect(mails[0]).toContain(
    "Name: Asha Raman\nPhone: +91 44 0000 0000\nE-mail: asha@example.com\nCompany: Chennai Biologics Pvt Ltd\n\nMessage:\n",
  );

  // Another company is another enquiry; the same one again is a resend.
  expect((await post(JSON.stringify({ ...typed, company: "Other Ltd" }))).status).toBe(201);
  expect(JSON.parse((await post(body)).body)).toEqual({ ok: true, id, duplicate: true });

  const out: string[] = [];
  await runEnquiriesCli(["list"], { ENQUIRY_DATA_DIR: dir }, { out: (l) => out.push(l), err: () => undefined });
  expect(out[0]).toMatch(/^received \(UTC\)\s+id\s+delivery\s+tries\s+name\s+e-mail\s+company\s+phone\s+message$/);
  // A text field's column is 20 characters wide, like the name's.
  expect(out.find((l) => l.includes(id))).toMatch(
    / Asha Raman {12}asha@example\.com {14}Chennai Biologics P… {2}\+91 /,
  );
});

test("the receiver's validation applies its rules, and names it", async () => {
  const { receiver, post } = receiverWithMail();
  const missing = await post(JSON.stringify({ ...typed, company: undefined }));
  expect(missing.status).toBe(400);
  expect(JSON.parse(missing.body)).toMatchObject({ fields: { company: "is required" } });
  const long = await post(JSON.stringify({ ...typed, company: "x".repeat(121) }));
  expect(JSON.parse(long.body)).toMatchObject({ fields: { company: "must be at most 120 characters" } });
  expect(await receiver.store.storedLines()).toEqual([]);
});

test("lines stored before the field existed (versions 3 and 2, and unversioned) read with it empty", async () => {
  const { company: _c, ...older } = { ...typed, company: "" };
  const screening = { verdict: "clean", signals: [] };
  const lines = [
    { id: "unversioned", receivedAt: "2026-11-20T09:30:00.000Z", ...older, delivery: "stored-only" },
    { v: 2, id: "v2", receivedAt: "2026-11-21T09:30:00.000Z", ...older, delivery: "stored-only" },
    { v: 3, id: "v3", receivedAt: "2026-11-21T10:30:00.000Z", ...older, screening, delivery: "stored-only" },
    { v: 4, id: "v4-without-company", receivedAt: "2026-11-22T09:30:00.000Z", ...older, delivery: "stored-only" },
  ];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "enquiries.jsonl"), lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const { receiver } = receiverWithMail();
  expect((await receiver.store.ready()).imported).toMatchObject({ enquiries: 3, unreadableLines: 1 }); // a version-4 line must have it
  const { enquiries } = await receiver.store.list();
  expect(enquiries.map((e) => [e.id, (e as unknown as Record<string, string>).company])).toEqual([
    ["unversioned", ""],
    ["v2", ""],
    ["v3", ""],
  ]);
});
