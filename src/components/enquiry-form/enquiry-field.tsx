import { fieldSpec, type EnquiryFieldName } from "../../enquiry-contract/enquiry-fields";
import * as styles from "./enquiry-form.module.css";

export interface EnquiryFieldProps {
  /** Form prefix from useId, so that two forms on a page never share ids. */
  idPrefix: string;
  /** The field of the enquiry's definition: its kind, limit, autocomplete and whether it is required. */
  name: EnquiryFieldName;
  label: string;
  /** Shown after the label, e.g. "(optional)". */
  hint?: string;
  value: string;
  /** Set after a submit found this required field empty; the message is in `describedBy`. */
  invalid: boolean;
  describedBy: string;
  readOnly: boolean;
  onChange: (name: EnquiryFieldName, value: string) => void;
}

/** A label above its input or textarea. */
export function EnquiryField(props: EnquiryFieldProps) {
  const { idPrefix, name, label, hint, invalid, describedBy, onChange, value, readOnly } = props;
  const { kind, maxLength, required, autoComplete } = fieldSpec(name);
  const id = `${idPrefix}-${name}`;
  const shared = {
    id,
    name,
    className: styles.input,
    "aria-invalid": invalid || undefined,
    "aria-describedby": invalid ? describedBy : undefined,
    maxLength,
    value,
    readOnly,
    autoComplete,
    required,
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        {hint && <span className={styles.hint}> {hint}</span>}
      </label>
      {kind === "multiline" ? (
        <textarea {...shared} rows={6} onChange={(e) => onChange(name, e.target.value)} />
      ) : (
        <input {...shared} type={kind} onChange={(e) => onChange(name, e.target.value)} />
      )}
    </div>
  );
}
