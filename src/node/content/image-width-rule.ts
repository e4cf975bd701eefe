/**
 * The width rules for pictures (and the size rule below), shared by the content check (image-sizes.ts, on files) and
 * the
 * editing studio (admin/src/image-field.tsx, on the picture an editor just chose), so that both say
 * the same thing about the same picture. No Node imports: the studio's browser bundle uses it too.
 * `wanted` is the schema's `"x-image-min-width"`: the widest the page shows the picture, at twice the
 * pixels for sharp screens.
 */
export function narrowImageWarning(value: string, width: number, wanted: number): string | undefined {
  if (width >= wanted) return undefined;
  return `the image ${value} is ${width} px wide, but this place needs at least ${wanted} px: it will look blurred on large or sharp screens. Use an image at least ${wanted} px wide`;
}

/**
 * A picture far larger than its place needs, by the same rule in the check and the studio. The site
 * shows no picture wider than 1920 px (gatsby-config.ts's largest breakpoint) and `wanted` is already
 * twice the widest it is shown, so a picture over twice `wanted` wide makes no page sharper: it only
 * makes the repository, the studio's uploads and the build heavier. A photograph that fills the widest
 * place (2400 px) is 0.5 to 2 MB as a JPEG of good quality: over `LARGE_IMAGE_BYTES`, whatever its width,
 * it was saved at a size or quality nothing on the site uses.
 */
export const LARGE_IMAGE_BYTES = 5_000_000;

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

export function largeImageWarning(
  value: string,
  image: { bytes: number; width: number | undefined },
  wanted: number,
): string | undefined {
  const heavy = image.bytes > LARGE_IMAGE_BYTES;
  const wide = image.width !== undefined && image.width > 2 * wanted;
  if (!heavy && !wide) return undefined;
  const found = [heavy ? megabytes(image.bytes) : "", wide ? `${image.width} px wide` : ""]
    .filter(Boolean)
    .join(" and ");
  return `the image ${value} is ${found}, far more than this place needs (a picture ${wanted} px wide; over ${2 * wanted} px wide or over ${megabytes(LARGE_IMAGE_BYTES)} is far too much): the page looks no sharper for it, but the repository, the editing studio and the build carry the whole file. Save a copy ${wanted} px wide (a photograph as a JPEG of quality about 80: as a rule under 1 MB), and use that`;
}
