import { characterClass, codePoint, SPACES } from "./character-names";

/**
 * Spaces that are not spaces to YAML. A word processor, a web page or a chat pastes non-breaking and
 * other special spaces that look like ordinary ones; YAML counts only the ordinary space (and the
 * tab) between a field name and its value, and in the indentation. Such a line then gets a message
 * about something else ("text without a field name"), or one about another line. Each is named here,
 * at its own column.
 */

const NAMES = SPACES;
/** The characters as \uXXXX escapes: joiners written as themselves in a character class would join. */
const ODD = characterClass(Object.keys(NAMES));
const ESCAPED = ODD.slice(1, -1);
/** The indentation: ordinary and odd spaces, up to the line's first other character. */
const INDENT = new RegExp(`^[ ${ESCAPED}]*`);
/** "name:" or "- name:" or "-", then an odd space where YAML needs an ordinary one. */
const AFTER = new RegExp(`^( *(?:- +)*)((?:[^\\s#"'\\-][^:#]*?:)|-)(${ODD})`);

export interface InvisibleSpace {
  line: number;
  column: number;
  message: string;
}

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
    // Nothing after it: not a space missing but a character to delete, which odd-characters.ts says.
    if (after && body.slice(after[0].length).trim() !== "") {
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
