import type { ReactNode } from "react";
import type { SiteIdentity } from "../../types/content";
import { fill } from "../../utils/text";
import { ContactList, PostalAddress } from "../content/contact-details";
import { SocialIcon } from "./icons";
import * as styles from "./footer.module.css";

export function Footer({ site }: { site: SiteIdentity }) {
  const { labels } = site;
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <FooterSection id="footer-address" heading={labels.addressHeading}>
          <PostalAddress address={site.address} name={site.legalName} className={styles.address} />
        </FooterSection>
        <FooterSection id="footer-contact" heading={labels.contactHeading}>
          <ContactList
            labels={labels}
            mobile={site.mobile}
            telephone={site.telephone}
            email={site.email}
            className={styles.contact}
          />
        </FooterSection>
        <FooterSection id="footer-social" heading={labels.followUs}>
          <ul className={styles.social}>
            {site.social.map((network) => (
              <li key={network.url}>
                <a href={network.url} target="_blank" rel="noopener noreferrer">
                  <SocialIcon name={network.name} />
                  <span>{network.name}</span>
                </a>
              </li>
            ))}
          </ul>
        </FooterSection>
      </div>
      <p className={styles.copyright}>{fill(labels.copyright, { year: new Date().getFullYear() })}</p>
    </footer>
  );
}

/** A column of the footer, named by its heading for screen readers' landmarks list. */
function FooterSection({ id, heading, children }: { id: string; heading: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className={styles.heading}>
        {heading}
      </h2>
      {children}
    </section>
  );
}
