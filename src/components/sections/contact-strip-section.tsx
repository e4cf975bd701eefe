import { useId } from "react";
import { ContactList, PostalAddress } from "../content/contact-details";
import { Container, Section } from "../content/page";
import type { ContactStripSectionFields, SiteContact, Tone } from "./types";
import * as styles from "./contact-strip-section.module.css";

export interface ContactStripSectionProps extends ContactStripSectionFields {
  /** From data/site/site.yaml: the same details as the contact page and the footer. */
  contact: SiteContact;
  tone?: Tone;
}

export const defaultContactHeading = "Contact us";

/** The company's address, numbers, e-mail and website, linked as the contact page links them. */
export function ContactStripSection({ heading, contact, tone }: ContactStripSectionProps) {
  const headingId = useId();
  return (
    <Section tone={tone} labelledBy={headingId}>
      <Container wide>
        <div className={styles.strip}>
          <h2 id={headingId} className={styles.heading}>
            {heading || defaultContactHeading}
          </h2>
          <PostalAddress address={contact.address} name={contact.companyName} className={styles.address} />
          <ContactList
            labels={contact.labels}
            mobile={contact.mobile}
            telephone={contact.telephone}
            email={contact.email}
            website={contact.website ?? undefined}
            className={styles.details}
          />
        </div>
      </Container>
    </Section>
  );
}
