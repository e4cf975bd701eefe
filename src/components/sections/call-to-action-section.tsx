import { Link } from "gatsby";
import { useId } from "react";
import { Container, Section } from "../content/page";
import type { CallToActionSectionFields, Tone } from "./types";
import * as styles from "./call-to-action-section.module.css";

export interface CallToActionSectionProps extends CallToActionSectionFields {
  tone?: Tone;
}

export const defaultButtonTo = "/contact";

/** A heading, one line of text and a button-styled link to a page of the site (the contact page by default). */
export function CallToActionSection({ heading, text, buttonLabel, buttonTo, tone }: CallToActionSectionProps) {
  const headingId = useId();
  return (
    <Section tone={tone} labelledBy={headingId}>
      <Container>
        <div className={styles.box}>
          <h2 id={headingId} className={styles.heading}>
            {heading}
          </h2>
          <p className={styles.text}>{text}</p>
          <Link to={buttonTo || defaultButtonTo} className={styles.button}>
            {buttonLabel}
          </Link>
        </div>
      </Container>
    </Section>
  );
}
