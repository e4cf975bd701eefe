/**
 * The one width rule for pictures, shared by the content check (image-sizes.ts, on files) and the
 * editing studio (admin/src/image-field.tsx, on the picture an editor just chose), so that both say
 * the same thing about the same picture. No Node imports: the studio's browser bundle uses it too.
 * `wanted` is the schema's `"x-image-min-width"`: the widest the page shows the picture, at twice the
 * pixels for sharp screens.
 */
export function narrowImageWarning(value: string, width: number, wanted: number): string | undefined {
  if (width >= wanted) return undefined;
  return `the image ${value} is ${width} px wide, but this place needs at least ${wanted} px: it will look blurred on large or sharp screens. Use an image at least ${wanted} px wide`;
}
