import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import {
  bodyOf,
  ENQUIRY_FIELD_NAMES,
  ENQUIRY_FIELDS,
  FORM_FIELD_NAMES,
  HONEYPOT_FIELD,
  type EnquiryBody,
  type EnquiryFieldWording,
  type FormFieldName,
} from "../../enquiry-contract/enquiry-fields";
import { useBehaviour } from "../../hooks/use-behaviour";
import type { EnquiryFormIslandData } from "../../islands/enquiry-form-data";
import { EnquiryField } from "./enquiry-field";
import { enquiryPayload, missingField } from "./enquiry-values";
import { HoneypotField } from "./honeypot-field";
import { configuredEndpoint, enquiryUrl, sendEnquiry } from "./send-enquiry";
import * as styles from "./enquiry-form.module.css";

/**
 * Wording of the form (data/contact/contact.yaml `form`): each field's label and hint, under the keys
 * the enquiry's definition gives; the three messages are the spec's.
 */
export type EnquiryFormText = Record<
  EnquiryFieldWording | "submit" | "sending" | "requiredMessage" | "successMessage" | "errorMessage",
  string
>;

export interface EnquiryFormProps {
  text: EnquiryFormText;
  /** Backend base address; default the build-time GATSBY_ENQUIRY_API, else "/api". */
  endpoint?: string;
  /**
   * A preview's form (the editing studio's): shown, but it sends nothing, by script or by the browser
   * (no action, controls disabled), and says so in this note.
   */
  previewNote?: string;
}

type Notice = "required" | "success" | "error";
const EMPTY = bodyOf(() => "");

/**
 * The "Request for Information" form (spec §2, §4, §5, §7, §8): idle → submitting → success | error.
 * One live region, present from the first render, holds the current message.
 *
 * Before and without JavaScript it is a plain HTML form: the browser checks required fields and the
 * e-mail's format itself and posts the fields (urlencoded) to the same endpoint, which answers with a
 * page showing the same message. Where a script runs it (React in `npm run develop` and the studio's
 * previews; on the built site its island, src/islands/enquiry-form.ts, does the same on this HTML),
 * noValidate hands validation to the spec's own message and the script sends the JSON request instead.
 */
export function EnquiryForm({ text, endpoint, previewNote }: EnquiryFormProps) {
  // The island (src/islands/enquiry-form.ts) gets the texts the server HTML does not show.
  useBehaviour("enquiry-form", {
    sending: text.sending,
    requiredMessage: text.requiredMessage,
    successMessage: text.successMessage,
    errorMessage: text.errorMessage,
  } satisfies EnquiryFormIslandData);
  const [values, setValues] = useState<EnquiryBody>(EMPTY);
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  // The button is disabled while sending, but state lands only on the next render: this ref makes a
  // double click or a second Enter before then send nothing more.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const statusId = `${id}-status`;

  // Once the script runs, the spec's message replaces the browser's checks. Set on the element, not
  // rendered, so that the server HTML keeps the browser's checks for a visitor without scripts.
  // Hydration leaves what a visitor typed before the scripts arrived in the fields (React does not
  // overwrite it), but not in the state, whose next render would empty them: take it over once.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    form.noValidate = true;
    const { elements } = form;
    const typed = bodyOf((name) => (elements.namedItem(name) as HTMLInputElement | null)?.value ?? "");
    if (FORM_FIELD_NAMES.some((name) => typed[name])) setValues((current) => ({ ...current, ...typed }));
  }, []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current || previewNote) return;
    setNotice(null);
    const blank = ENQUIRY_FIELD_NAMES.find((name) => missingField(values, name));
    if (blank) {
      setNotice("required");
      formRef.current?.querySelector<HTMLElement>(`[name="${blank}"]`)?.focus();
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    try {
      await sendEnquiry(enquiryPayload(values), { endpoint });
      setValues(EMPTY);
      setNotice("success");
    } catch (error) {
      console.error("The enquiry could not be sent:", error);
      setNotice("error");
    } finally {
      inFlight.current = false;
      setSubmitting(false);
    }
  }

  const onChange = (name: FormFieldName, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const messages = { required: text.requiredMessage, success: text.successMessage, error: text.errorMessage };

  // method="post": a submit before hydration must never put the visitor's details in the URL.
  return (
    <form
      ref={formRef}
      className={styles.form}
      action={previewNote ? undefined : enquiryUrl(endpoint ?? configuredEndpoint())}
      method="post"
      aria-busy={submitting}
      data-state={submitting ? "submitting" : (notice ?? "idle")}
      onSubmit={handleSubmit}
    >
      {previewNote && <p className={styles.previewNote}>{previewNote}</p>}
      {FORM_FIELD_NAMES.map((name) => {
        if (name === HONEYPOT_FIELD)
          return (
            <HoneypotField
              key={name}
              id={`${id}-${name}`}
              name={name}
              label={text[ENQUIRY_FIELDS[name].label]}
              value={values[name]}
              onChange={onChange}
            />
          );
        const spec = ENQUIRY_FIELDS[name];
        return (
          <EnquiryField
            key={name}
            idPrefix={id}
            name={name}
            label={text[spec.label]}
            hint={"hint" in spec ? text[spec.hint] : undefined}
            value={values[name]}
            invalid={notice === "required" && missingField(values, name)}
            describedBy={statusId}
            readOnly={submitting || Boolean(previewNote)}
            onChange={onChange}
          />
        );
      })}
      <button type="submit" className={styles.submit} disabled={submitting || Boolean(previewNote)}>
        {submitting ? text.sending : text.submit}
      </button>
      <p id={statusId} role="status" aria-live="polite" className={styles.status} data-kind={notice ?? undefined}>
        {notice && messages[notice]}
      </p>
    </form>
  );
}
