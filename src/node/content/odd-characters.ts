import { visit, type Scalar } from "yaml";
import { codePoint, INVISIBLE, JOINERS, LOOKALIKE_LETTERS, SPACES } from "./character-names";
import { syntax } from "./lookalike-syntax";
import type { Found, Line } from "./odd-character-line";
import type { Candidate, YamlFile } from "./yaml-candidates";

/**
 * A character that is not what it looks like: invisible, a letter of another alphabet in a Latin
 * word, or a look-alike of YAML's own colon, dash, comment mark or quotes. Left to the parser and the
 * schema, such a line gets advice about a name or a line that reads right ("unknown field tіtle, with
 * a Cyrillic і: did you mean title?"). Named here instead, at its own column, once per line: outside
 * the values as a problem, inside them as a warning (odd-character-values.ts). Text of other
 * scripts, en dashes and curly apostrophes inside a text, and non-breaking spaces between words are
 * the text's own and stay silent.
 */

const WORD = /[\p{L}\p{M}\p{N}_.\-/@]/u;
/** Characters a joiner may follow: letters and marks of other scripts, and emoji. */
const JOINS = /[\p{L}\p{M}\p{Extended_Pictographic}\p{Emoji_Component}]/u;

const named = (table: Record<string, string>, char: string) => `${table[char]} (${codePoint(char)})`;
const visible = (text: string) => [...text].filter((char) => !(char in INVISIBLE) && !(char in SPACES)).join("");

/** The first odd character of each line outside the values, as a problem at its column. */
export function oddCharacters(file: YamlFile): Candidate[] {
  const { keys, values } = scalarsOf(file);
  const found: Candidate[] = [];
  file.lineTexts.forEach((text, i) => {
    const line = i + 1;
    const start = file.offsetOfLine(line);
    const within = (nodes: Scalar[], index: number) =>
      nodes.find((node) => node.range![0] <= start + index && start + index < node.range![1]);
    const context: Line = {
      file,
      line,
      text,
      keyAt: (index) => within(keys, index),
      wanted: (index) => !within(values, index),
    };
    const first = firstIn(context, !file.inBlockText(line));
    if (first) found.push(file.problemAt(start + first.index, first.message));
  });
  return found;
}

/**
 * The first odd character of a value (invisible, a look-alike letter in a Latin word, a special space
 * ending a line), with its offset in the file.
 */
export function oddCharacterIn(file: YamlFile, value: Scalar): Found | undefined {
  const [from, to] = value.range!;
  const first = file.pos(from).line;
  const last = file.pos(Math.max(from, to - 1)).line;
  for (let line = first; line <= last; line += 1) {
    const start = file.offsetOfLine(line);
    const text = file.lineTexts[line - 1] ?? "";
    const wanted = (index: number) => from <= start + index && start + index < to;
    const found = firstIn({ file, line, text, keyAt: () => undefined, wanted }, false);
    if (found) return { index: start + found.index, message: found.message };
  }
  return undefined;
}

function firstIn(context: Line, syntaxToo: boolean): Found | undefined {
  return [invisible, lookalikeLetter, oddSpace, ...(syntaxToo ? [syntax] : [])]
    .map((detect) => detect(context))
    .filter((f): f is Found => f !== undefined)
    .sort((a, b) => a.index - b.index)[0];
}

function scalarsOf(file: YamlFile): { keys: Scalar[]; values: Scalar[] } {
  const keys: Scalar[] = [];
  const values: Scalar[] = [];
  visit(file.doc, {
    Scalar: (key, node) => {
      if (node.range) (key === "key" ? keys : values).push(node);
    },
  });
  return { keys, values };
}

function invisible({ file, line, text, keyAt, wanted }: Line): Found | undefined {
  // Where the indentation ends is YAML's, even when YAML has read the line as a text.
  const opensLine = (i: number) => !file.inBlockText(line) && visible(text.slice(0, i)).trim() === "";
  let at = -1;
  let before: string | undefined;
  for (let i = 0; i < text.length && at < 0; i += before!.length) {
    const char = String.fromCodePoint(text.codePointAt(i)!);
    // A byte order mark opening the file is how some editors mark UTF-8; YAML skips it.
    const opening = line === 1 && i === 0 && char === "\uFEFF";
    const odd = char in INVISIBLE && !opening && !(JOINERS.has(char) && joins(before));
    if (odd && (wanted(i) || opensLine(i))) at = i;
    before = char;
  }
  if (at < 0) return undefined;
  const char = text.charAt(at);
  const name = named(INVISIBLE, char);
  const what = `an invisible character, ${name}`;
  if (visible(text.slice(at + 1)).trim() === "")
    return { index: at, message: `line ${line} ends with ${what}: delete it` };
  const key = keyAt(at);
  if (key) {
    return {
      index: at,
      message: `line ${line}: the field name "${visible(key.source ?? "")}" has an invisible character in it, ${name}, so to the site it is another name: delete that character (or delete the name and type it again)`,
    };
  }
  if (visible(text.slice(0, at)).trim() === "")
    return { index: at, message: `line ${line} starts with ${what}: delete it` };
  const word = visible(wordAround(text, at, /[^ \t]/));
  return {
    index: at,
    message: word
      ? `line ${line}: "${word}" has an invisible character in it, ${name}: delete that character (or delete the word and type it again)`
      : `line ${line} has ${what} between two spaces: delete it`,
  };
}

function lookalikeLetter({ line, text, keyAt, wanted }: Line): Found | undefined {
  for (let at = 0; at < text.length; at += 1) {
    const letter = LOOKALIKE_LETTERS[text.charAt(at)];
    if (!letter || !wanted(at)) continue;
    const key = keyAt(at);
    const word = key ? (key.source ?? String(key.value)) : wordAround(text, at, WORD);
    if (!key && !/[A-Za-z]/.test(word)) continue;
    const [script, latin] = letter;
    const where = key ? `the field name "${word}"` : `"${word}"`;
    return {
      index: at,
      message: `line ${line}: ${where} has a ${script} letter "${text.charAt(at)}" (${codePoint(text.charAt(at))}) that looks like the Latin "${latin}" but is another letter to the site: delete it and type ${latin} again`,
    };
  }
  return undefined;
}

/** A special space in a field name, or at the end of a line, where it does nothing but mislead. */
function oddSpace({ line, text, keyAt, wanted }: Line): Found | undefined {
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charAt(at);
    if (!(char in SPACES) || char in INVISIBLE || !wanted(at)) continue;
    const key = keyAt(at);
    if (key) {
      return {
        index: at,
        message: `line ${line}: the field name "${visible(key.source ?? "")}" has ${named(SPACES, char)} in it, which looks like a space but is not one to YAML: delete it`,
      };
    }
    if (text.slice(at).trim() === "" && text.slice(0, at).trim() !== "") {
      return {
        index: at,
        message: `line ${line} ends with ${named(SPACES, char)}, which does nothing there: delete it`,
      };
    }
  }
  return undefined;
}

/** After a letter of such a script (Malayalam's chillu letters end a word with one) or an emoji. */
function joins(before: string | undefined): boolean {
  return before !== undefined && before > "\x7F" && JOINS.test(before);
}

/** The run of characters matching `part` around `at`. */
function wordAround(text: string, at: number, part: RegExp): string {
  let from = at;
  let to = at + 1;
  while (from > 0 && part.test(text.charAt(from - 1))) from -= 1;
  while (to < text.length && part.test(text.charAt(to))) to += 1;
  return text.slice(from, to);
}
