import type { HoneypotFieldName } from "../../enquiry-contract/enquiry-fields";
import * as styles from "./enquiry-form.module.css";

export interface HoneypotFieldProps {
  id: string;
  name: HoneypotFieldName;
  /** "Leave this empty": for whoever meets it all the same (a reader of the page's source, a text browser). */
  label: string;
  value: string;
  onChange: (name: HoneypotFieldName, value: string) => void;
}

/**
 * The spam screening's honeypot (src/enquiry-contract/enquiry-fields.ts): an input a person never
 * meets, which scripts that fill in every input fill in. Moved out of sight rather than display:none,
 * which such scripts skip; aria-hidden, so that screen readers leave it out; out of the Tab order;
 * autocomplete off and a name no autofill profile matches, so that browsers and password managers
 * leave it alone. Its value is sent as it is; the receiver flags the enquiry, never refuses it.
 */
export function HoneypotField({ id, name, label, value, onChange }: HoneypotFieldProps) {
  return (
    <div className={styles.honeypot} aria-hidden="true">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="text"
        tabIndex={-1}
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(name, e.target.value)}
      />
    </div>
  );
}
