/**
 * The enquiry's definition against the specification and against the parts that stay written by
 * hand: each entry's label (and hint) in data/contact/contact.yaml `form`, in its schema, and in the
 * page query of src/pages/contact.tsx; and its honeypot, the one entry that is not a field.
 */
import fs from "node:fs";
import path from "node:path";
import {
  bodyOf,
  ENQUIRY_FIELD_NAMES,
  ENQUIRY_FIELDS,
  ENQUIRY_VERSION,
  enquiryOf,
  fieldSpec,
  FORM_FIELD_NAMES,
  HONEYPOT_FIELD,
} from "../../src/enquiry-contract/enquiry-fields";
import { content } from "../support/content";

const root = path.resolve(__dirname, "../..");
const wordingKeys = [
  ...ENQUIRY_FIELD_NAMES.flatMap((name) => {
    const { label, hint } = fieldSpec(name);
    return hint ? [label, hint] : [label];
  }),
  ENQUIRY_FIELDS[HONEYPOT_FIELD].label,
];

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

test("one honeypot, after the fields: the body is the enquiry's four keys and its key", () => {
  expect(FORM_FIELD_NAMES.filter((name) => ENQUIRY_FIELDS[name].kind === "honeypot")).toEqual([HONEYPOT_FIELD]);
  expect(FORM_FIELD_NAMES).toEqual([...ENQUIRY_FIELD_NAMES, HONEYPOT_FIELD]);
  expect(bodyOf((name) => name)).toEqual({ ...enquiryOf((name) => name), [HONEYPOT_FIELD]: HONEYPOT_FIELD });
  expect(content.contact.form).toHaveProperty(ENQUIRY_FIELDS[HONEYPOT_FIELD].label, "Leave this empty");
});

test("the honeypot's name is one no autofill profile matches, so that no browser fills it for a person", () => {
  // The tokens of browsers' and password managers' field heuristics (Chromium's autofill regexes,
  // the HTML autocomplete names), which a name or id containing them may trigger.
  const autofill =
    /name|mail|phone|tel|fax|mobile|url|web|site|homepage|company|organi[sz]ation|address|street|city|zip|postal|country|region|state|card|cc|user|login|pass|birth|age|title|nick/i;
  expect(HONEYPOT_FIELD).not.toMatch(autofill);
  expect(ENQUIRY_FIELD_NAMES).not.toContain(HONEYPOT_FIELD);
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
