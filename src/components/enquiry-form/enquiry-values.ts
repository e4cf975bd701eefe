/**
 * The form's rules on what the visitor typed, shared by the component (enquiry-form.tsx, which
 * renders the form and runs it in `npm run develop` and the studio) and the built site's island
 * (src/islands/enquiry-form.ts): no React here, it ends up in the visitor's browser.
 */
import {
  bodyOf,
  fieldSpec,
  HONEYPOT_FIELD,
  type EnquiryBody,
  type EnquiryFieldName,
} from "../../enquiry-contract/enquiry-fields";

const isBlank = (value: string) => value.trim() === "";

/** A required field left blank (whitespace only is blank). */
export const missingField = (values: EnquiryBody, name: EnquiryFieldName) =>
  fieldSpec(name).required && isBlank(values[name]);

/**
 * What is sent: single-line fields trimmed (a pasted e-mail's stray space must not fail the receiver),
 * free text and the honeypot exactly as they are.
 */
export const enquiryPayload = (values: EnquiryBody) =>
  bodyOf((name) =>
    name === HONEYPOT_FIELD || fieldSpec(name).kind === "multiline" ? values[name] : values[name].trim(),
  );
