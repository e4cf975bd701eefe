import type { IGatsbyImageData } from "gatsby-plugin-image";

interface ImageFile {
  readonly childImageSharp?: { readonly gatsbyImageData: unknown } | null;
}

/**
 * The schema guarantees the File; this guarantees it is an image sharp could read, and names the
 * field when it is not (e.g. an editor dropped in a file that is not a JPEG or PNG).
 */
export function imageOf(file: ImageFile | null | undefined, field: string): IGatsbyImageData {
  const data = file?.childImageSharp?.gatsbyImageData;
  if (!data) throw new Error(`No image could be made for ${field}: is the file a JPEG, PNG, WebP or AVIF image?`);
  return data as IGatsbyImageData;
}

/** The fallback (JPEG/PNG) address of an image, for tags that take one URL (og:image, JSON-LD logo). */
export function imageSrc(image: IGatsbyImageData): string {
  const src = image.images.fallback?.src;
  if (!src) throw new Error("The image has no fallback source");
  return src;
}
