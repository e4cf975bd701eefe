import { Link } from "gatsby";
import type { FormOutcome } from "../../enquiry-contract/form-results";
import { Container, Section } from "../content/page";
import * as styles from "./enquiry-result-view.module.css";

export interface EnquiryResultViewProps {
  outcome: FormOutcome;
  heading: string;
  /** One of the form's three messages, word for word. */
  message: string;
  backLink: string;
}

/** Where the contact form lands when the browser posted it itself (no JavaScript). */
export function EnquiryResultView({ outcome, heading, message, backLink }: EnquiryResultViewProps) {
  return (
    <Section>
      <Container>
        <h1>{heading}</h1>
        <p className={styles.message} data-kind={outcome === "sent" ? "success" : "error"}>
          {message}
        </p>
        <p>
          <Link to="/contact">{backLink}</Link>
        </p>
      </Container>
    </Section>
  );
}
