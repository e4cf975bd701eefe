/**
 * Test data from the REAL content files under data/ (through the one loader,
 * src/node/content/read-content.ts), so tests follow an editor's change and fail when it breaks
 * what the site shows. Images become fake IGatsbyImageData (no sharp in unit tests).
 */
import type { IGatsbyImageData } from "gatsby-plugin-image";
import { dropdownEntries, readContent, siteRoutes } from "../../src/node/content/read-content";
import type { ShellData } from "../../src/types/content";

export const content = readContent();

/** Every content route: the main navigation's pages, then one per service. */
export const routes: readonly string[] = siteRoutes(content);

/** The Services dropdown, label and route of each entry, in order. */
export const dropdown = dropdownEntries(content);

/** The service whose page is at `route`, if any. */
export const serviceAt = (route: string) => content.services.find((s) => `/services/${s.slug}` === route);

/** A valid constrained image of the given intrinsic size; `name` makes its src distinct. */
export function fakeImage(width: number, height: number, name = "image"): IGatsbyImageData {
  const src = `/static/${name}-${width}x${height}.jpg`;
  return {
    layout: "constrained",
    width,
    height,
    images: {
      fallback: {
        src,
        srcSet: `${src} ${width}w`,
        sizes: `(min-width: ${width}px) ${width}px, 100vw`,
      },
      sources: [],
    },
  };
}

/** ShellData as the Layout query builds it: site identity, main nav and the Services dropdown. */
export function loadShellData(): ShellData {
  return {
    site: { ...content.site, logo: fakeImage(48, 48, "logo") },
    nav: [...content.navigation.main],
    servicesMenu: dropdown,
  };
}
