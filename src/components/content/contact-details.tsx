import type { Address } from "../../types/content";
import { addressLines, mailtoHref, telHref } from "../../utils/text";

/**
 * The company's details as the footer and the contact page show them, written once so that both
 * link the same way. Each place keeps its own layout through `className`.
 */

interface PostalAddressProps {
  address: Address;
  /** The footer names the company inside the address; the contact page does so above it. */
  name?: string;
  className?: string;
}

export function PostalAddress({ address, name, className }: PostalAddressProps) {
  return (
    <address className={className}>
      {name && <strong>{name}</strong>}
      {addressLines(address).map((line) => (
        <span key={line}>{line}</span>
      ))}
    </address>
  );
}

interface ContactListProps {
  labels: { mobile: string; telephone: string; email: string; website: string };
  mobile: string;
  telephone: string;
  email: string;
  /** Listed on the contact page; the footer leaves it out (the spec's footer has no website). */
  website?: string;
  className?: string;
}

/** Mobile, telephone, e-mail and (optionally) website, each a link, as a description list. */
export function ContactList({ labels, mobile, telephone, email, website, className }: ContactListProps) {
  return (
    <dl className={className}>
      <dt>{labels.mobile}</dt>
      <dd>
        <a href={telHref(mobile)}>{mobile}</a>
      </dd>
      <dt>{labels.telephone}</dt>
      <dd>
        <a href={telHref(telephone)}>{telephone}</a>
      </dd>
      <dt>{labels.email}</dt>
      <dd>
        <a href={mailtoHref(email)}>{email}</a>
      </dd>
      {website && (
        <>
          <dt>{labels.website}</dt>
          <dd>
            <a href={website}>{website.replace(/^https?:\/\//, "")}</a>
          </dd>
        </>
      )}
    </dl>
  );
}
