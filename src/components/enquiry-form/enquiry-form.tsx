import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useHydrated } from "../../hooks/use-hydrated";
import { EnquiryField } from "./enquiry-field";
import { configuredEndpoint, enquiryUrl, sendEnquiry, type Enquiry } from "./send-enquiry";
import * as styles from "./enquiry-form.module.css";

/** Wording of the form (data/contact/contact.yaml `form`); the three messages are the spec's. */
export interface EnquiryFormText {
  nameLabel: string;
  phoneLabel: string;
  phoneHint: string;
  emailLabel: string;
  messageLabel: string;
  submit: string;
  sending: string;
  requiredMessage: string;
  successMessage: string;
  errorMessage: string;
}

export interface EnquiryFormProps {
  text: EnquiryFormText;
  /** Backend base address; default the build-time GATSBY_ENQUIRY_API, else "/api". */
  endpoint?: string;
}

type Notice = "required" | "success" | "error";
const EMPTY: Enquiry = { name: "", phone: "", email: "", message: "" };
const REQUIRED = ["name", "email", "message"] as const;
const FIELDS = Object.keys(EMPTY) as Array<keyof Enquiry>;
const isBlank = (value: string) => value.trim() === "";

/**
 * The "Request for Information" form (spec §2, §4, §5, §7, §8): idle → submitting → success | error.
 * One live region, present from the first render, holds the current message.
 *
 * Before and without JavaScript it is a plain HTML form: the browser checks required fields and the
 * e-mail's format itself and posts the fields (urlencoded) to the same endpoint, which answers with a
 * page showing the same message. Once hydrated, noValidate hands validation to the spec's own message
 * and the script sends the JSON request instead.
 */
export function EnquiryForm({ text, endpoint }: EnquiryFormProps) {
  const hydrated = useHydrated();
  const [values, setValues] = useState<Enquiry>(EMPTY);
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  // The button is disabled while sending, but state lands only on the next render: this ref makes a
  // double click or a second Enter before then send nothing more.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const statusId = `${id}-status`;

  // Hydration leaves what a visitor typed before the scripts arrived in the fields (React does not
  // overwrite it), but not in the state, whose next render would empty them: take it over once.
  useEffect(() => {
    const elements = formRef.current?.elements;
    if (!elements) return;
    const typed = Object.fromEntries(
      FIELDS.map((name) => [name, (elements.namedItem(name) as HTMLInputElement | null)?.value ?? ""]),
    );
    if (FIELDS.some((name) => typed[name])) setValues((current) => ({ ...current, ...typed }));
  }, []);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;
    setNotice(null);
    const blank = REQUIRED.find((field) => isBlank(values[field]));
    if (blank) {
      setNotice("required");
      formRef.current?.querySelector<HTMLElement>(`[name="${blank}"]`)?.focus();
      return;
    }
    inFlight.current = true;
    setSubmitting(true);
    // Single-line fields are sent trimmed (a pasted e-mail's stray space must not fail the receiver);
    // the message is sent exactly as typed.
    const { name, phone, email, message } = values;
    const enquiry: Enquiry = { name: name.trim(), phone: phone.trim(), email: email.trim(), message };
    try {
      await sendEnquiry(enquiry, { endpoint });
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

  const onChange = (name: keyof Enquiry, value: string) => setValues((v) => ({ ...v, [name]: value }));
  const field = (name: keyof Enquiry) => ({
    idPrefix: id,
    name,
    value: values[name],
    invalid: notice === "required" && name !== "phone" && isBlank(values[name]),
    describedBy: statusId,
    readOnly: submitting,
    onChange,
  });
  const messages = { required: text.requiredMessage, success: text.successMessage, error: text.errorMessage };

  // method="post": a submit before hydration must never put the visitor's details in the URL.
  return (
    <form
      ref={formRef}
      className={styles.form}
      action={enquiryUrl(endpoint ?? configuredEndpoint())}
      method="post"
      noValidate={hydrated}
      aria-busy={submitting}
      data-state={submitting ? "submitting" : (notice ?? "idle")}
      onSubmit={handleSubmit}
    >
      <EnquiryField {...field("name")} label={text.nameLabel} autoComplete="name" required />
      <EnquiryField {...field("phone")} label={text.phoneLabel} hint={text.phoneHint} type="tel" autoComplete="tel" />
      <EnquiryField {...field("email")} label={text.emailLabel} type="email" autoComplete="email" required />
      <EnquiryField {...field("message")} label={text.messageLabel} multiline required />
      <button type="submit" className={styles.submit} disabled={submitting}>
        {submitting ? text.sending : text.submit}
      </button>
      <p id={statusId} role="status" aria-live="polite" className={styles.status} data-kind={notice ?? undefined}>
        {notice && messages[notice]}
      </p>
    </form>
  );
}
