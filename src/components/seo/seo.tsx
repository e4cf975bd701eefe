import type { ReactNode } from "react";
import { useSiteMetadata } from "../../hooks/use-site-metadata";
import { organizationJsonLd, serializeJsonLd } from "../../utils/structured-data";

export interface SeoProps {
  title: string;
  description: string;
  /** The route, e.g. /services/study-design; the canonical URL is built from it. */
  pathname: string;
  noindex?: boolean;
  /** Page-specific JSON-LD (e.g. Service, BreadcrumbList), after the organisation's. */
  structuredData?: ReadonlyArray<Record<string, unknown>>;
  children?: ReactNode;
}

/** The one head component of every page (Gatsby Head API). */
export function Seo({ title, description, pathname, noindex = false, structuredData = [], children }: SeoProps) {
  const { siteUrl, siteName, organization, shareImage } = useSiteMetadata();
  const fullTitle = `${title} – ${siteName}`;
  const url = `${siteUrl}${pathname}`;
  return (
    <>
      <html lang="en" />
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      {noindex && <meta name="robots" content="noindex" />}
      <meta name="theme-color" content="#0f2a4a" />
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={siteName} />
      <meta property="og:locale" content="en_IN" />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta property="og:image" content={shareImage.url} />
      <meta property="og:image:width" content={String(shareImage.width)} />
      <meta property="og:image:height" content={String(shareImage.height)} />
      <meta property="og:image:alt" content={shareImage.alt} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={fullTitle} />
      <meta name="twitter:description" content={description} />
      <meta name="twitter:image" content={shareImage.url} />
      <meta name="twitter:image:alt" content={shareImage.alt} />
      {[organizationJsonLd(organization), ...structuredData].map((data, i) => (
        <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }} />
      ))}
      {children}
    </>
  );
}
