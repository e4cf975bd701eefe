import type { ReactNode } from "react";
import { useSiteMetadata } from "../../hooks/use-site-metadata";

export interface SeoProps {
  title: string;
  description: string;
  /** The route, e.g. /services/study-design; the canonical URL is built from it. */
  pathname: string;
  noindex?: boolean;
  children?: ReactNode;
}

/** The one head component of every page (Gatsby Head API). */
export function Seo({ title, description, pathname, noindex = false, children }: SeoProps) {
  const { siteUrl, siteName } = useSiteMetadata();
  const fullTitle = `${title} – ${siteName}`;
  const url = `${siteUrl}${pathname}`;
  return (
    <>
      <html lang="en" />
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      <link rel="canonical" href={url} />
      {noindex && <meta name="robots" content="noindex" />}
      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={siteName} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="theme-color" content="#0f2a4a" />
      {children}
    </>
  );
}
