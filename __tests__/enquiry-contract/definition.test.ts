/**
 * The enquiry's definition against the specification and against the parts that stay written by
 * hand: each field's label (and hint) in data/contact/contact.yaml `form`, in its schema, and in the
 * page query of src/pages/contact.tsx.
 */
import fs from "node:fs";
import path from "node:path";
import {
  ENQUIRY_FIELD_NAMES,
  ENQUIRY_FIELDS,
  ENQUIRY_VERSION,
  enquiryOf,
  fieldSpec,
} from "../../src/enquiry-contract/enquiry-fields";
import { content } from "../support/content";

const root = path.resolve(__dirname, "../..");
const wordingKeys = ENQUIRY_FIELD_NAMES.flatMap((name) => {
  const { label, hint } = fieldSpec(name);
  return hint ? [label, hint] : [label];
});

test("the specification's enquiry: name, phone, email, message, all text; phone alone optional; email an address", () => {
  expect(ENQUIRY_FIELD_NAMES).toEqual(["name", "phone", "email", "message"]);
  expect(ENQUIRY_FIELD_NAMES.filter((name) => !fieldSpec(name).required)).toEqual(["phone"]);
  expect(ENQUIRY_FIELDS.email.kind).toBe("email");
  expect(ENQUIRY_FIELDS.message.kind).toBe("multiline");
  expect(enquiryOf((name) => name)).toEqual({ name: "name", phone: "phone", email: "email", message: "message" });
});

test("every field added since the first version says so, and the version counts it", () => {
  for (const name of ENQUIRY_FIELD_NAMES) expect(fieldSpec(name).since ?? 1).toBeLessThanOrEqual(ENQUIRY_VERSION);
});

test("each field's wording exists in contact.yaml `form`", () => {
  const form = content.contact.form as unknown as Record<string, unknown>;
  for (const key of wordingKeys) expect([key, typeof form[key]]).toEqual([key, "string"]);
});

test("contact.schema.json requires each field's wording and describes it", () => {
  const schema = JSON.parse(fs.readFileSync(path.join(root, "data/schemas/contact.schema.json"), "utf8")) as {
    properties: { form: { properties: Record<string, { description?: string }>; required: string[] } };
  };
  const form = schema.properties.form;
  for (const key of wordingKeys) {
    expect([key, form.required.includes(key)]).toEqual([key, true]);
    expect([key, form.properties[key]?.description]).toEqual([key, expect.any(String)]);
  }
});

test("the contact page's query asks for each field's wording", () => {
  const page = fs.readFileSync(path.join(root, "src/pages/contact.tsx"), "utf8");
  const selection =
    page
      .match(/\bform \{([^}]*)\}/)?.[1]
      ?.split(/\s+/)
      .filter(Boolean) ?? [];
  for (const key of wordingKeys) expect([key, selection.includes(key)]).toEqual([key, true]);
});
