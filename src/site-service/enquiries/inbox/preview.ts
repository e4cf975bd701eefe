/**
 * A message's preview in the inbox's list: its first words, on one line. A cut one ends with "…", so
 * no one reads "…a class II device in" as the whole of what the visitor wrote.
 */
export const PREVIEW = { words: 12, chars: 120 };

export function preview(message: string): string {
  const words = message.trim().split(/\s+/).filter(Boolean);
  let text = words.slice(0, PREVIEW.words).join(" ");
  let cut = words.length > PREVIEW.words;
  // One long "word" (a link, a run of characters) is cut too, by characters (whole code points).
  if ([...text].length > PREVIEW.chars) {
    text = [...text].slice(0, PREVIEW.chars).join("").trimEnd();
    cut = true;
  }
  return cut ? `${text}…` : text;
}
