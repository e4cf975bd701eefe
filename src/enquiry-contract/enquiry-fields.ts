/**
 * The enquiry: its fields, in the form's order and the JSON body's, and all that is known of each.
 * The one place a field is named: the browser's form (src/components/enquiry-form) and the receiver's
 * validation, duplicate key, stored record, e-mail and `enquiries list` (src/site-service/enquiries) follow
 * from it. It ends up in every visitor's browser: data and types only, no imports.
 *
 * kind       how it is entered and checked:
 *            text       one line (input type=text), sent trimmed; flattened to one line in the e-mail
 *            tel        a phone number: digits, spaces and + - ( ) (input type=tel), sent trimmed
 *            email      one e-mail address (input type=email), sent trimmed; a resend may differ in case
 *            multiline  free text (textarea), sent as typed, shown last in the e-mail and the list
 *            honeypot   the spam screening's trap, not a field of the enquiry (below)
 * required   the form and the receiver refuse it empty (whitespace only is empty)
 * maxLength  in characters (code points): the input's maxlength and the receiver's limit, so a
 *            visitor cannot type what the receiver would refuse with only the generic error to show
 * label/hint keys of its wording in data/contact/contact.yaml `form` (written by hand there, in
 *            data/schemas/contact.schema.json and in the page query of src/pages/contact.tsx)
 * caption    how the e-mail names it ("E-mail: …") and, in lower case, the column of `enquiries list`
 * since      the ENQUIRY_VERSION that added it: stored lines written before have it empty
 *
 * A new field is one more entry here (and its wording, see label).
 *
 * The spam screening's honeypot is an entry of a kind of its own, "honeypot": an input people never
 * see, reach or hear (hidden, aria-hidden, out of the Tab order, autocomplete off), labelled "Leave
 * this empty" for whoever meets it anyway; scripts that fill every input fill it. Its key is in the
 * form's JSON body and form post (empty for a person), and nowhere else: the receiver never refuses
 * it, whatever it holds, and never stores it; a value in it is a signal of its screening. Its name
 * must match no autofill profile (name, email, phone, url, website, company, address…), or a
 * browser or password manager would fill it for a person. An enquiry without the key (an older page,
 * an API client) is screened as if it were empty.
 */
export type EnquiryFieldKind = "text" | "tel" | "email" | "multiline";

export interface EnquiryFieldSpec {
  kind: EnquiryFieldKind;
  required: boolean;
  maxLength: number;
  label: string;
  hint?: string;
  caption: string;
  autoComplete?: string;
  since?: number;
}

/** The honeypot (see above): only the key of its label. Never stored, so no `since` either. */
export interface HoneypotFieldSpec {
  kind: "honeypot";
  label: string;
}

export const ENQUIRY_FIELDS = {
  name: { kind: "text", required: true, maxLength: 200, label: "nameLabel", caption: "Name", autoComplete: "name" },
  phone: {
    kind: "tel",
    required: false,
    maxLength: 40,
    label: "phoneLabel",
    hint: "phoneHint",
    caption: "Phone",
    autoComplete: "tel",
  },
  email: {
    kind: "email",
    required: true,
    maxLength: 254,
    label: "emailLabel",
    caption: "E-mail",
    autoComplete: "email",
  },
  message: { kind: "multiline", required: true, maxLength: 5000, label: "messageLabel", caption: "Message" },
  cyrus_confirm_field: { kind: "honeypot", label: "honeypotLabel" },
} as const satisfies Record<string, EnquiryFieldSpec | HoneypotFieldSpec>;

/**
 * The version of the fields above, which every stored enquiry carries ("v"); lines written before
 * versions existed are version 1 (these four fields). Raise it when a field is added, removed or
 * changes meaning, and give an added field `since: <the new version>`, so that older lines still read.
 * Version 3 added the stored line's `screening`: the spam screening's verdict and signals.
 */
export const ENQUIRY_VERSION = 3;

type Entries = typeof ENQUIRY_FIELDS;
/** Every entry: the form's inputs and the keys of the JSON body it sends, in order. */
export type FormFieldName = keyof Entries;
/** The enquiry's own fields: every entry but the honeypot. */
export type EnquiryFieldName = {
  [K in FormFieldName]: Entries[K] extends { kind: "honeypot" } ? never : K;
}[FormFieldName];
export type HoneypotFieldName = Exclude<FormFieldName, EnquiryFieldName>;

/** The fields the receiver validates, stores and e-mails: all text. */
export type Enquiry = Record<EnquiryFieldName, string>;
/** The JSON body the form sends: the enquiry's fields and the honeypot's key (empty for a person). */
export type EnquiryBody = Record<FormFieldName, string>;

type Spec = Entries[FormFieldName];
/** Keys of the entries' wording in contact.yaml `form`. */
export type EnquiryFieldWording = Spec["label"] | Extract<Spec, { hint: string }>["hint"];

export const FORM_FIELD_NAMES = Object.keys(ENQUIRY_FIELDS) as FormFieldName[];
export const ENQUIRY_FIELD_NAMES = FORM_FIELD_NAMES.filter(
  (name) => ENQUIRY_FIELDS[name].kind !== "honeypot",
) as EnquiryFieldName[];
/** The honeypot's key. */
export const HONEYPOT_FIELD = FORM_FIELD_NAMES.find(
  (name) => ENQUIRY_FIELDS[name].kind === "honeypot",
) as HoneypotFieldName;

/** The field's definition, typed as any field's (for the optional properties). */
export const fieldSpec = (name: EnquiryFieldName): EnquiryFieldSpec => ENQUIRY_FIELDS[name];

/** An enquiry with each field's value from `valueOf`, keys in the definition's order. */
export const enquiryOf = (valueOf: (name: EnquiryFieldName) => string): Enquiry =>
  Object.fromEntries(ENQUIRY_FIELD_NAMES.map((name) => [name, valueOf(name)])) as Enquiry;

/** The form's JSON body: each entry's value from `valueOf`, keys in the definition's order. */
export const bodyOf = (valueOf: (name: FormFieldName) => string): EnquiryBody =>
  Object.fromEntries(FORM_FIELD_NAMES.map((name) => [name, valueOf(name)])) as EnquiryBody;
