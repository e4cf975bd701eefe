import { characterClass, codePoint, LOOKALIKE_PUNCTUATION, LOOKALIKE_QUOTES } from "./character-names";
import type { Found, Line } from "./odd-character-line";
import type { YamlFile } from "./yaml-candidates";

/**
 * Look-alikes of YAML's own punctuation where they stand in for it: a fullwidth colon after a field
 * name, an en dash or a minus sign opening a list entry, a fullwidth number sign where a comment
 * starts, curly quotes around a field name. Elsewhere (an en dash inside a text, a fullwidth colon in
 * Chinese text) they are the text's own.
 */

const { ":": COLONS, "-": DASHES, "#": HASHES } = LOOKALIKE_PUNCTUATION;
const COLON = new RegExp(`^( *(?:- +)*)([a-z][A-Za-z0-9_]*) *(${characterClass(Object.keys(COLONS))})(?=[ \\t]|$)`);
const DASH = new RegExp(`^( *)(${characterClass(Object.keys(DASHES))})(?=[ \\t])`);
const LISTY = new RegExp(`^ *(?:-|${characterClass(Object.keys(DASHES))})[ \\t]`);
const HASH = new RegExp(`(?:^ *|[ \\t])(${characterClass(Object.keys(HASHES))})(?=[ \\t]|$)`);
const QUOTED_NAME = new RegExp(
  `^( *(?:- +)*)([${LOOKALIKE_QUOTES.open}])([A-Za-z][A-Za-z0-9_]*)([${LOOKALIKE_QUOTES.close}]) *:(?=[ \\t]|$)`,
);
const shown = (table: Record<string, string>, char: string) => `${table[char]} "${char}" (${codePoint(char)})`;

/** Look-alikes of YAML's colon after a field name, of a list's dash, of the comment mark, and quotes around a name. */
export function syntax({ file, line, text }: Line): Found | undefined {
  const quoted = QUOTED_NAME.exec(text);
  if (quoted) {
    const [, lead, open, name, close] = quoted as unknown as [string, string, string, string, string];
    return {
      index: lead.length,
      message: `line ${line}: the field name ${open}${name}${close} is in quotes that are not YAML's " and ' (${open} ${close}), so YAML reads them as part of the name: remove them: ${name}:`,
    };
  }
  const colon = COLON.exec(text);
  if (colon) {
    const [whole, , name, char] = colon as unknown as [string, string, string, string];
    return {
      index: whole.length - 1,
      message: `line ${line}: after "${name}" comes ${shown(COLONS, char)}, which looks like a colon but is not one to YAML: replace it with a plain colon :`,
    };
  }
  const dash = DASH.exec(text);
  if (dash && inList(file, line, dash[1]!.length)) {
    return {
      index: dash[1]!.length,
      message: `line ${line} starts with ${shown(DASHES, dash[2]!)} where a list entry's dash goes, which looks like one but is not one to YAML: replace it with a plain hyphen -`,
    };
  }
  const hash = HASH.exec(text);
  if (hash) {
    return {
      index: hash.index + hash[0].length - 1,
      message: `line ${line}: ${shown(HASHES, hash[1]!)} looks like # but does not start a comment for YAML: replace it with a plain #`,
    };
  }
  return undefined;
}

/** A dash-like line is meant as a list entry when it opens a field's value or stands among entries. */
function inList(file: YamlFile, line: number, indent: number): boolean {
  const near = (step: number) => {
    for (let n = line + step; n >= 1 && n <= file.lineTexts.length; n += step) {
      const text = file.lineTexts[n - 1]!;
      if (text.trim() !== "" && !text.trimStart().startsWith("#")) return text;
    }
    return "";
  };
  const above = near(-1);
  const indentOf = (text: string) => text.length - text.trimStart().length;
  if (/:\s*$/.test(above)) return true;
  return [above, near(1)].some((text) => LISTY.test(text) && indentOf(text) === indent);
}
