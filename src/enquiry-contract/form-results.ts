/**
 * Where a browser lands after posting the contact form without JavaScript: the receiver answers the
 * post with 303 See Other to one of these pages, which Gatsby builds from
 * data/enquiry-results/enquiry-results.yaml (each shows one of the form's own three messages).
 * Fixed paths, shared by the receiver, the page creation and the sitemap; no personal data ever
 * goes into them.
 */
export const FORM_OUTCOMES = ["sent", "error", "incomplete"] as const;
export type FormOutcome = (typeof FORM_OUTCOMES)[number];

export const formResultPath = (outcome: FormOutcome): string => `/contact/${outcome}`;

/** The form message (data/contact/contact.yaml `form`) each result page shows. */
export const FORM_OUTCOME_MESSAGE = {
  sent: "successMessage",
  error: "errorMessage",
  incomplete: "requiredMessage",
} as const satisfies Record<FormOutcome, string>;
