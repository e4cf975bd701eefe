/**
 * The studio's messages for a field over its length, naming the limit and the value's own length, in
 * the words the content check uses: "Meta title: at most 60 characters (this one has 76)". Characters
 * are counted as JSON Schema counts them (code points: an emoji is one).
 */
export function tooLong(label: string, max: number, value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const length = [...value].length;
  return length > max ? `${label}: at most ${max} characters (this one has ${length})` : undefined;
}

/** Decap's English phrases that the studio words differently: no "didn't match the pattern". */
const PHRASES = {
  editor: {
    editorControlPane: {
      widget: {
        regexPattern: "%{fieldLabel}: %{pattern}",
      },
    },
  },
};

/**
 * Decap shows a field's errors in capitals; the studio's are sentences, shown as written (the element
 * in the selector outweighs Decap's one class, whose styles come later in the page).
 */
export const ERROR_STYLE = 'ul[class*="ControlErrorsList"] { text-transform: none; }';

/** Decap's phrases (its registered English locale) with the studio's own in place of some. */
export function withStudioPhrases(base: Record<string, unknown>, own: Record<string, unknown> = PHRASES) {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(own)) {
    const current = result[key];
    result[key] =
      value && typeof value === "object" && current && typeof current === "object"
        ? withStudioPhrases(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return result;
}
