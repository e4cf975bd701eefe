/**
 * schema.org JSON-LD built from the same YAML as the pages, so crawlers read what visitors read.
 * Pure functions: the Seo component renders their output.
 */
import type { Address } from "../types/content";

export interface OrganizationFacts {
  siteUrl: string;
  name: string;
  legalName: string;
  description: string;
  logoUrl: string;
  foundingYear: number;
  address: Address;
  telephone: string;
  mobile: string;
  email: string;
  sameAs: readonly string[];
}

type JsonLd = Record<string, unknown>;

const context = "https://schema.org";

export const organizationId = (siteUrl: string): string => `${siteUrl}/#organization`;

export function organizationJsonLd(o: OrganizationFacts): JsonLd {
  return {
    "@context": context,
    "@type": "MedicalOrganization",
    "@id": organizationId(o.siteUrl),
    name: o.name,
    legalName: o.legalName,
    description: o.description,
    url: `${o.siteUrl}/home`,
    logo: { "@type": "ImageObject", url: o.logoUrl },
    foundingDate: String(o.foundingYear),
    address: {
      "@type": "PostalAddress",
      streetAddress: o.address.streetAddress,
      addressLocality: o.address.city,
      addressRegion: o.address.region,
      postalCode: o.address.postalCode,
      addressCountry: o.address.countryCode,
    },
    telephone: o.telephone,
    email: o.email,
    contactPoint: [
      { "@type": "ContactPoint", contactType: "customer service", telephone: o.telephone, email: o.email },
      { "@type": "ContactPoint", contactType: "customer service", telephone: o.mobile },
    ],
    sameAs: [...o.sameAs],
  };
}

export function serviceJsonLd(s: { siteUrl: string; name: string; description: string; pathname: string }): JsonLd {
  return {
    "@context": context,
    "@type": "Service",
    name: s.name,
    description: s.description,
    url: `${s.siteUrl}${s.pathname}`,
    provider: { "@id": organizationId(s.siteUrl) },
    areaServed: "Worldwide",
  };
}

/** An added page (data/pages/<slug>.yaml): a web page of the site, published by the organisation. */
export function webPageJsonLd(p: { siteUrl: string; name: string; description: string; pathname: string }): JsonLd {
  return {
    "@context": context,
    "@type": "WebPage",
    name: p.name,
    description: p.description,
    url: `${p.siteUrl}${p.pathname}`,
    isPartOf: { "@type": "WebSite", url: p.siteUrl },
    publisher: { "@id": organizationId(p.siteUrl) },
  };
}

/** Home › Services › <service>: trail items are { name, pathname }, the last being the page itself. */
export function breadcrumbJsonLd(siteUrl: string, trail: ReadonlyArray<{ name: string; pathname: string }>): JsonLd {
  return {
    "@context": context,
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: crumb.name,
      item: `${siteUrl}${crumb.pathname}`,
    })),
  };
}

/** JSON for a <script> element: "<" escaped so no text in the data can close the element. */
export function serializeJsonLd(data: JsonLd): string {
  return JSON.stringify(data).replace(/</g, "\\u003c");
}
