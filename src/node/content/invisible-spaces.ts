/**
 * Spaces that are not spaces to YAML. A word processor, a web page or a chat pastes non-breaking and
 * other special spaces that look like ordinary ones; YAML counts only the ordinary space (and the
 * tab) between a field name and its value, and in the indentation. Such a line then gets a message
 * about something else ("text without a field name"), or one about another line. Each is named here,
 * at its own column.
 */

/** Characters that look like a space, or like nothing, with the name an editor can look up. */
const NAMES: Record<string, string> = {
  "\u00A0": "a non-breaking space",
  "\u1680": "an Ogham space mark",
  "\u2000": "an en quad space",
  "\u2001": "an em quad space",
  "\u2002": "an en space",
  "\u2003": "an em space",
  "\u2004": "a three-per-em space",
  "\u2005": "a four-per-em space",
  "\u2006": "a six-per-em space",
  "\u2007": "a figure space",
  "\u2008": "a punctuation space",
  "\u2009": "a thin space",
  "\u200A": "a hair space",
  "\u200B": "a zero-width space",
  "\u200C": "a zero-width non-joiner",
  "\u200D": "a zero-width joiner",
  "\u202F": "a narrow non-breaking space",
  "\u205F": "a medium mathematical space",
  "\u2060": "a word joiner",
  "\u3000": "an ideographic space",
  "\uFEFF": "a zero-width no-break space (byte order mark)",
};

/** The characters as \uXXXX escapes: joiners written as themselves in a character class would join. */
const ESCAPED = Object.keys(NAMES)
  .map((char) => `\\u${char.codePointAt(0)!.toString(16).padStart(4, "0")}`)
  .join("");
const ODD = `[${ESCAPED}]`;
/** The indentation: ordinary and odd spaces, up to the line's first other character. */
const INDENT = new RegExp(`^[ ${ESCAPED}]*`);
/** "name:" or "- name:" or "-", then an odd space where YAML needs an ordinary one. */
const AFTER = new RegExp(`^( *(?:- +)*)((?:[^\\s#"'\\-][^:#]*?:)|-)(${ODD})`);

export interface InvisibleSpace {
  line: number;
  column: number;
  message: string;
}

/** U+00A0 */
const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

const named = (char: string) => `${NAMES[char]} (${codePoint(char)})`;

const ZERO_WIDTH = new Set(["\u200B", "\u200C", "\u200D", "\u2060", "\uFEFF"]);

/**
 * The first odd space of each line where YAML needs an ordinary one: in the indentation, and after a
 * field's name or a list's dash. `skip`: 1-based lines to leave alone (inside a block of text).
 */
export function invisibleSpaces(
  lines: readonly string[],
  skip: (line: number) => boolean = () => false,
): InvisibleSpace[] {
  const found: InvisibleSpace[] = [];
  lines.forEach((text, i) => {
    const line = i + 1;
    // A byte order mark opening the file is how some editors mark UTF-8; YAML skips it.
    const body = line === 1 ? text.replace(/^\uFEFF/, "") : text;
    const offset = text.length - body.length;
    if (body.trim() === "" || body.trimStart().startsWith("#") || skip(line)) return;
    const indent = INDENT.exec(body)![0];
    const inIndent = new RegExp(ODD).exec(indent);
    if (inIndent && indent.length < body.length) {
      const char = inIndent[0];
      const message = ZERO_WIDTH.has(char)
        ? `line ${line} starts with an invisible character, ${named(char)}: delete it`
        : `line ${line} is indented with ${named(char)}, which looks like a space but is not one to YAML: replace it with an ordinary space`;
      found.push({ line, column: offset + inIndent.index + 1, message });
      return;
    }
    const after = AFTER.exec(body);
    if (after) {
      const [, lead, marker, char] = after as unknown as [string, string, string, string];
      const what = marker === "-" ? 'the list\'s "-"' : `"${marker.trim()}"`;
      found.push({
        line,
        column: offset + lead.length + marker.length + 1,
        message: `after ${what} on line ${line} comes ${named(char)}, which looks like a space but is not one to YAML: replace it with an ordinary space`,
      });
    }
  });
  return found;
}
