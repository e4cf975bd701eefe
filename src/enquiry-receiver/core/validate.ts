/**
 * The enquiry's fields: what the form sends, checked the same way wherever the receiver runs.
 * Pure: no I/O, so the rules can be tested and reused on their own.
 */
import { ENQUIRY_MAX_LENGTH } from "../../enquiry-contract/limits";

export interface Enquiry {
  name: string;
  phone: string;
  email: string;
  message: string;
}

export type EnquiryField = keyof Enquiry;
export type FieldErrors = Partial<Record<EnquiryField, string>>;
export type Validation = { ok: true; enquiry: Enquiry } | { ok: false; fields: FieldErrors };

interface Rule {
  required: boolean;
  max: number;
  pattern?: RegExp;
  patternMessage?: string;
}

// Pragmatic address shape (the one browsers use for type=email, widened to letters and combining
// marks of any script, as in Tamil or Hindi addresses) plus a dot in the domain: the answer goes
// out over the internet.
const LABEL = "[\\p{L}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?";
const EMAIL = new RegExp(`^[\\p{L}\\p{M}\\p{N}.!#$%&'*+/=?^_\`{|}~-]+@${LABEL}(?:\\.${LABEL})+$`, "u");

const RULES: Record<EnquiryField, Rule> = {
  name: { required: true, max: ENQUIRY_MAX_LENGTH.name },
  phone: {
    required: false,
    max: ENQUIRY_MAX_LENGTH.phone,
    pattern: /^[0-9 +\-()]+$/,
    patternMessage: "may contain only digits, spaces and + - ( )",
  },
  email: { required: true, max: ENQUIRY_MAX_LENGTH.email, pattern: EMAIL, patternMessage: "must be an e-mail address" },
  message: { required: true, max: ENQUIRY_MAX_LENGTH.message },
};

export const ENQUIRY_FIELDS = Object.keys(RULES) as EnquiryField[];

// Tab, CR and LF are text; other control characters and lone surrogates are not anything a
// visitor types, and would trouble mail software later.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it looks for
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|\p{Surrogate}/u;

/** Checks the four fields of a parsed JSON object; other keys are ignored (never copied). */
export function validateEnquiry(body: Readonly<Record<string, unknown>>): Validation {
  const enquiry: Enquiry = { name: "", phone: "", email: "", message: "" };
  const fields: FieldErrors = {};
  for (const key of ENQUIRY_FIELDS) {
    // Own properties only: "constructor" or "toString" must not be found on Object.prototype.
    const raw = Object.hasOwn(body, key) ? body[key] : undefined;
    const error = checkField(RULES[key], raw);
    if (error) fields[key] = error;
    else enquiry[key] = (raw as string | undefined)?.trim() ?? "";
  }
  return Object.keys(fields).length ? { ok: false, fields } : { ok: true, enquiry };
}

function checkField(rule: Rule, raw: unknown): string | undefined {
  if (raw === undefined) return rule.required ? "is required" : undefined;
  if (typeof raw !== "string") return "must be a string";
  const value = raw.trim();
  if (!value) return rule.required ? "is required" : undefined;
  if (codePoints(value) > rule.max) return `must be at most ${rule.max} characters`;
  if (NOT_TEXT.test(value)) return "must not contain control characters";
  if (rule.pattern && !rule.pattern.test(value)) return rule.patternMessage;
  return undefined;
}

/** Length in Unicode code points: an emoji counts once, not as its two UTF-16 units. */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
