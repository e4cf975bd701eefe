import type { SiteIdentity } from "../../types/content";
import { addressLines, fill, mailtoHref, telHref } from "../../utils/text";
import { SocialIcon } from "./icons";
import * as styles from "./footer.module.css";

export function Footer({ site }: { site: SiteIdentity }) {
  const { labels } = site;
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <section aria-labelledby="footer-address">
          <h2 id="footer-address" className={styles.heading}>
            {labels.addressHeading}
          </h2>
          <address className={styles.address}>
            <strong>{site.legalName}</strong>
            {addressLines(site.address).map((line) => (
              <span key={line}>{line}</span>
            ))}
          </address>
        </section>
        <section aria-labelledby="footer-contact">
          <h2 id="footer-contact" className={styles.heading}>
            {labels.contactHeading}
          </h2>
          <dl className={styles.contact}>
            <dt>{labels.mobile}</dt>
            <dd>
              <a href={telHref(site.mobile)}>{site.mobile}</a>
            </dd>
            <dt>{labels.telephone}</dt>
            <dd>
              <a href={telHref(site.telephone)}>{site.telephone}</a>
            </dd>
            <dt>{labels.email}</dt>
            <dd>
              <a href={mailtoHref(site.email)}>{site.email}</a>
            </dd>
          </dl>
        </section>
        <section aria-labelledby="footer-social">
          <h2 id="footer-social" className={styles.heading}>
            {labels.followUs}
          </h2>
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
        </section>
      </div>
      <p className={styles.copyright}>{fill(labels.copyright, { year: new Date().getFullYear() })}</p>
    </footer>
  );
}
