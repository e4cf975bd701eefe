import { ENQUIRY_MAX_LENGTH } from "../../enquiry-contract/limits";
import type { Enquiry } from "./send-enquiry";
import * as styles from "./enquiry-form.module.css";

export interface EnquiryFieldProps {
  /** Form prefix from useId, so that two forms on a page never share ids. */
  idPrefix: string;
  name: keyof Enquiry;
  label: string;
  /** Shown after the label, e.g. "(optional)". */
  hint?: string;
  type?: "text" | "email" | "tel";
  multiline?: boolean;
  required?: boolean;
  autoComplete?: string;
  value: string;
  /** Set after a submit found this required field empty; the message is in `describedBy`. */
  invalid: boolean;
  describedBy: string;
  readOnly: boolean;
  onChange: (name: keyof Enquiry, value: string) => void;
}

/** A label above its input or textarea. */
export function EnquiryField(props: EnquiryFieldProps) {
  const { idPrefix, name, label, hint, type = "text", multiline, invalid, describedBy, onChange, ...rest } = props;
  const id = `${idPrefix}-${name}`;
  const shared = {
    id,
    name,
    className: styles.input,
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? describedBy : undefined,
    maxLength: ENQUIRY_MAX_LENGTH[name],
    ...rest,
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        {hint && <span className={styles.hint}> {hint}</span>}
      </label>
      {multiline ? (
        <textarea {...shared} rows={6} onChange={(e) => onChange(name, e.target.value)} />
      ) : (
        <input {...shared} type={type} onChange={(e) => onChange(name, e.target.value)} />
      )}
    </div>
  );
}
