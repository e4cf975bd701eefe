/**
 * The enquiry's fields, checked the same way wherever the receiver runs: the rules are the
 * definition's (src/enquiry-contract/enquiry-fields.ts), and the formats of its kinds are here.
 * Pure: no I/O, so the rules can be tested and reused on their own.
 */
import {
  ENQUIRY_FIELD_NAMES,
  fieldSpec,
  type Enquiry,
  type EnquiryFieldKind,
  type EnquiryFieldName,
  type EnquiryFieldSpec,
} from "../../../enquiry-contract/enquiry-fields";

export type FieldErrors = Partial<Record<EnquiryFieldName, string>>;
export type Validation = { ok: true; enquiry: Enquiry } | { ok: false; fields: FieldErrors };

// Pragmatic address shape (the one browsers use for type=email, widened to letters and combining
// marks of any script, as in Tamil or Hindi addresses) plus a dot in the domain: the answer goes
// out over the internet.
const LABEL = "[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?";
const EMAIL = new RegExp(`^[\\p{L}\\p{M}\\p{N}.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})+$`, "u");

/** What each kind of field must look like beyond being text within its length. */
const FORMATS: Record<EnquiryFieldKind, { pattern: RegExp; message: string } | undefined> = {
  text: undefined,
  multiline: undefined,
  tel: { pattern: /^[0-9 +\-()]+$/, message: "may contain only digits, spaces and + - ( )" },
  email: { pattern: EMAIL, message: "must be an e-mail address" },
};

// Tab, CR and LF are text; other control characters and lone surrogates are not anything a
// visitor types, and would trouble mail software later.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|\p{Surrogate}/u;

/**
 * Checks the definition's fields of a parsed JSON object; other keys are ignored (never copied).
 * The honeypot is not one of them: whatever it holds, it is never a reason to refuse (a password
 * manager may fill it for a person), nor copied; the spam screening reads it (../screening).
 */
export function validateEnquiry(body: Readonly<Record<string, unknown>>): Validation {
  const fields: FieldErrors = {};
  const enquiry = {} as Enquiry;
  for (const name of ENQUIRY_FIELD_NAMES) {
    // Own properties only: "constructor" or "toString" must not be found on Object.prototype.
    const raw = Object.hasOwn(body, name) ? body[name] : undefined;
    const error = checkField(fieldSpec(name), raw);
    if (error) fields[name] = error;
    else enquiry[name] = (raw as string | undefined)?.trim() ?? "";
  }
  return Object.keys(fields).length ? { ok: false, fields } : { ok: true, enquiry };
}

function checkField({ required, maxLength, kind }: EnquiryFieldSpec, raw: unknown): string | undefined {
  if (raw === undefined) return required ? "is required" : undefined;
  if (typeof raw !== "string") return "must be a string";
  const value = raw.trim();
  if (!value) return required ? "is required" : undefined;
  if (codePoints(value) > maxLength) return `must be at most ${maxLength} characters`;
  if (NOT_TEXT.test(value)) return "must not contain control characters";
  const format = FORMATS[kind];
  if (format && !format.pattern.test(value)) return format.message;
  return undefined;
}

/** Length in Unicode code points: an emoji counts once, not as its two UTF-16 units. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
