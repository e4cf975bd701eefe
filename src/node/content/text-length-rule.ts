/**
 * The one rule for text far longer than its place shows well, shared by the content check
 * (text-length.ts, on files) and the editing studio (admin/src/limited-widgets.tsx, as the editor
 * types; the field carries its place as `text_place`, src/node/content/cms-config.ts). A warning, not
 * a stop: the page still builds, but the text spills over its place. A field with a maxLength (page
 * titles, descriptions) has a hard limit instead, and no warning.
 * No Node imports: the studio's browser bundle uses it too.
 */

/** A field's JSON Schema, as far as this rule reads it (graphql-types.ts's JsonSchema is one). */
interface JsonSchema {
  type?: unknown;
  maxLength?: unknown;
  pattern?: unknown;
  [keyword: string]: unknown;
}

export type TextPlace = "paragraph" | "alt" | "entry" | "line";

/**
 * Characters (code points, as maxLength counts them) from which each place warns. The page's text
 * column holds about 70 characters a line on a computer and 35 on a phone; the longest texts in data/
 * when these were chosen: a paragraph of 369 characters, a bullet point of 173, an alt text of 81, a
 * heading or label of 68.
 * - paragraph (a text area in the studio): 1,500, about 250 words, 40 lines on a phone: more than a
 *   screen, to be split into paragraphs;
 * - alt (a picture's description): 250; screen readers read it out in one go, without pause;
 * - entry (one entry of a list of short texts: a bullet point, an industry): 400, over ten lines on a
 *   phone for what reads as one point;
 * - line (a heading, title, label, caption, name, a one-sentence notice): 200, a heading of three
 *   lines on a computer and six on a phone, a label or button far wider than its place (the form's
 *   notice under its button has 122).
 */
export const TEXT_WARN_LENGTH: Readonly<Record<TextPlace, number>> = {
  paragraph: 1500,
  alt: 250,
  entry: 400,
  line: 200,
};

/** Paragraphs and long texts get a text area in the studio; names, labels and short lines a one-line input. */
export function isLongText(name: string, schema: JsonSchema, listDescription: string | undefined): boolean {
  if (typeof schema.maxLength === "number") return schema.maxLength >= 120;
  if (schema.pattern) return false;
  return /paragraph/i.test(listDescription ?? "") || /^(text|description|intro|closing)$/.test(name);
}

/**
 * The place of a text field, by the names the studio gives it: `name` the field's (an entry of a list:
 * the list's name made singular, as its studio field), `listDescription` the list's description when
 * the text is one entry of a list. undefined: no warning (not free text, or a hard limit).
 */
export function textPlace(name: string, schema: JsonSchema, listDescription?: string): TextPlace | undefined {
  if (schema.type !== "string" || typeof schema.maxLength === "number") return undefined;
  if (schema.pattern || schema.enum || schema.format || schema["x-link"] || schema["x-image-path"]) return undefined;
  // A Markdown text (an added page's section) holds several paragraphs: each is measured on its own.
  if (schema["x-markdown"] || isLongText(name, schema, listDescription)) return "paragraph";
  if (/^alt$|Alt$/.test(name)) return "alt";
  return listDescription === undefined ? "line" : "entry";
}

const ADVICE: Readonly<Record<TextPlace, string>> = {
  paragraph: "split it into several shorter paragraphs, or shorten it",
  alt: "screen readers read it out in one go: say in a sentence or two what the picture shows",
  entry: "shorten it, or split it into several entries",
  line: "a heading, label or button this long runs over many lines or out of its place: shorten it",
};

const NAMES: Readonly<Record<TextPlace, string>> = {
  paragraph: "a paragraph",
  alt: "a picture's description",
  entry: "one entry of this list",
  line: "this place",
};

const counted = (n: number) => n.toLocaleString("en-GB");

export function longTextWarning(value: unknown, place: TextPlace): string | undefined {
  if (typeof value !== "string") return undefined;
  // Paragraphs are measured one by one: a blank line starts another (as in Markdown).
  if (place === "paragraph") {
    const blocks = value.split(/\n[ \t]*\n/);
    if (blocks.length > 1) return blocks.map((block) => longTextWarning(block, place)).find(Boolean);
  }
  const length = [...value].length;
  const limit = TEXT_WARN_LENGTH[place];
  if (length <= limit) return undefined;
  const words = value.split(/\s+/u).filter(Boolean).length;
  return `the text is ${counted(length)} characters long (${counted(words)} ${words === 1 ? "word" : "words"}), far more than ${NAMES[place]} shows well (over ${counted(limit)} characters): ${ADVICE[place]}`;
}
