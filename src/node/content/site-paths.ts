/**
 * The paths an added page (data/pages/<slug>.yaml, served at /<slug>) may not take: the fixed pages'
 * and those the site and its server use. The content check runs before Gatsby has pages, so it
 * knows them here; __tests__/node/site-paths.test.ts holds this list to src/pages/ and the server's
 * own locations.
 */

/** The fixed pages (src/pages/<name>.tsx) and the data file that holds each one's words. */
export const FIXED_PAGES: Readonly<Record<string, string>> = {
  "/home": "data/home/home.yaml",
  "/aboutus": "data/about/about.yaml",
  "/whycyrus": "data/why-cyrus/why-cyrus.yaml",
  "/services": "data/services-page/services-page.yaml",
  "/activities": "data/activities/activities.yaml",
  "/contact": "data/contact/contact.yaml",
};

/** First path segments the site or its server answer themselves, and what for (in an editor's words). */
export const RESERVED_SEGMENTS: Readonly<Record<string, string>> = {
  admin: "the editing studio",
  api: "the contact form's enquiries",
  oauth: "the editing studio's sign-in",
  hooks: "the git host's notices of published changes",
  inbox: "the enquiry inbox of the company's people",
  islands: "the small scripts that make its pages work",
  static: "the site's pictures and files",
  "page-data": "the data of every page",
  icons: "the site's icons",
  index: "the site's first page",
  "404": "the page shown for an address that does not exist",
  "dev-404-page": "the development server's page for an address that does not exist",
  _gatsby: "the site builder's own files",
};

/** Why `/<slug>` cannot be an added page's path, in an editor's words; undefined when it can. */
export function slugClash(slug: string): string | undefined {
  const fixed = FIXED_PAGES[`/${slug}`];
  if (fixed) return `the page /${slug} is one of the site's fixed pages, whose words are in ${fixed}`;
  const reserved = RESERVED_SEGMENTS[slug];
  if (reserved) return `the site uses /${slug} for ${reserved}`;
  if (slug.startsWith("sitemap"))
    return `the site uses addresses starting /sitemap for its sitemap (for search engines)`;
  return undefined;
}

/**
 * Why a slug cannot be an added page's, as the content check and the studio both say it (the studio
 * refuses it before saving: admin/src/refusals.ts); undefined when it can.
 */
export function slugRefusal(slug: string): string | undefined {
  const clash = slugClash(slug);
  return clash && `the slug "${slug}" cannot be used for an added page: ${clash}`;
}

/** An added page's path. */
export const addedPagePath = (slug: string): string => `/${slug}`;
