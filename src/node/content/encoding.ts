/**
 * A content file must be UTF-8, which is what the build reads it as. Windows Notepad's "Unicode" is
 * UTF-16, and older editors save "ANSI" (Windows-1252): read as UTF-8, the first is a string of
 * zero characters between the letters, the second has U+FFFD where each accented letter or curly
 * quote was. YAML would read either without a word, and the schema would then say things about
 * the file that make no sense to its editor ("must be an object").
 */

export interface EncodingProblem {
  line: number;
  column: number;
  message: string;
}

/** The replacement character the UTF-8 decoder puts for each byte it cannot read. */
const UNREADABLE = "\uFFFD";

const SAVE_AS_UTF8 =
  'save it as UTF-8 (in Notepad: File, Save As, then Encoding: UTF-8; in other editors, "Save with encoding" or "Reopen with encoding")';

/** The file's text as decoded from UTF-8: undefined when it was UTF-8. */
export function encodingProblem(text: string): EncodingProblem | undefined {
  // UTF-16 puts a zero byte beside every ASCII letter; a content file never holds one.
  if (text.includes("\u0000")) {
    return {
      line: 1,
      column: 1,
      message: `the file is saved as UTF-16 (what Notepad calls "Unicode"), not UTF-8, so its text cannot be read: ${SAVE_AS_UTF8}`,
    };
  }
  const at = text.indexOf(UNREADABLE);
  if (at < 0) return undefined;
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = at - before.lastIndexOf("\n");
  return {
    line,
    column,
    message: `line ${line} has a character that is not UTF-8 at column ${column} (the file was saved in another encoding, such as "ANSI" or Windows-1252): ${SAVE_AS_UTF8}, then check that character`,
  };
}
