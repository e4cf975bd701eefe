import type { IGatsbyImageData } from "gatsby-plugin-image";

/**
 * The site's views take IGatsbyImageData, which the build makes with sharp; in the studio an image is
 * the asset URL Decap gives the preview (a blob: URL of the working copy's or the repository's file,
 * or of a file just uploaded). One source, no WebP set: the preview shows the picture at the place and
 * the proportions of the page, which is what an editor checks.
 */
export interface Place {
  layout: IGatsbyImageData["layout"];
  width: number;
  height: number;
}

/** The places of the site's images, with the proportions and widths the pages' queries give them. */
export const PLACES = {
  banner: { layout: "fullWidth", width: 2400, height: 800 },
  slide: { layout: "fullWidth", width: 2400, height: 1000 },
  card: { layout: "constrained", width: 480, height: 320 },
  // An added page's picture beside its text (src/templates/added-page.tsx).
  picture: { layout: "constrained", width: 720, height: 480 },
  activity: { layout: "constrained", width: 560, height: 373 },
  badge: { layout: "constrained", width: 200, height: 200 },
  // The header's logo: a fixed 48 px square (src/hooks/use-shell-data.ts, and --logo-size).
  logo: { layout: "fixed", width: 48, height: 48 },
} as const satisfies Record<string, Place>;

/** Light grey until the picture arrives, as the site's dominant colour would be. */
const PLACEHOLDER = "#e5ecef";

export function previewImage(url: string, place: Place): IGatsbyImageData {
  return {
    layout: place.layout,
    width: place.width,
    height: place.height,
    backgroundColor: PLACEHOLDER,
    // No URL yet (an asset still loading, or an empty field): the box keeps its place, empty.
    images: {
      fallback: url ? { src: url, sizes: place.layout === "fullWidth" ? "100vw" : `${place.width}px` } : undefined,
      sources: [],
    },
  };
}
