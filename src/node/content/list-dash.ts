/**
 * "-We manage" is no list entry to YAML: without a space after it, the dash is part of the text, and a
 * list of such lines is one text. The schema's "must be an array" says nothing of the dash.
 */

/** A dash, then a letter or quote: not "- x", not "-5", not "---". */
const DASH_WITHOUT_SPACE = /^-(?=[^\s\-\d.])/;

export const startsWithDashWithoutSpace = (text: string): boolean => DASH_WITHOUT_SPACE.test(text);

/** The advice for a line that starts with such a dash (its text from the dash on). */
export function dashAdvice(line: string): string {
  const text = line.trim();
  return `"${text}" has no space after its dash, so YAML does not read it as a list entry: put a space after the dash: - ${text.slice(1)}`;
}
