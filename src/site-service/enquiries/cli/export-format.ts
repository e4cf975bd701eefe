/**
 * `enquiries export`: every enquiry as JSON lines (what `list --json` gives) or as CSV for a
 * spreadsheet: a header, then one row per enquiry, every cell quoted (RFC 4180), and no cell that
 * a spreadsheet could take for a formula (csvCell): enquiries come from anyone on the internet.
 */
import { ENQUIRY_FIELD_NAMES } from "../../../enquiry-contract/enquiry-fields";
import type { EnquiryRecord } from "../store/store";

const COLUMNS: Array<[string, (e: EnquiryRecord) => string]> = [
  ["id", (e) => e.id],
  ["receivedAt", (e) => e.receivedAt],
  ...ENQUIRY_FIELD_NAMES.map((name): [string, (e: EnquiryRecord) => string] => [name, (e) => e[name]]),
  ["screening", (e) => e.screening?.verdict ?? ""],
  ["signals", (e) => e.screening?.signals.join(" ") ?? ""],
  ["delivery", (e) => e.delivery],
  ["clearedAt", (e) => e.clearedAt ?? ""],
];

export function exportLines(enquiries: readonly EnquiryRecord[], format: "csv" | "jsonl"): string[] {
  if (format === "jsonl") return enquiries.map((e) => JSON.stringify(e));
  const row = (cells: string[]) => cells.map(csvCell).join(",");
  return [row(COLUMNS.map(([title]) => title)), ...enquiries.map((e) => row(COLUMNS.map(([, value]) => value(e))))];
}

/**
 * Where a formula would start: at the start of the value, or after a character a spreadsheet may
 * split a line on (`,` and `;`: which one is the separator depends on the locale, a decimal-comma
 * one takes `;`; a tab; a line break, for a reader that ignores the quotes), past any spaces and
 * double quotes a reader drops there. A formula starts with =, +, -, @, a tab or a carriage return
 * (OWASP's list), or the full-width forms of the four signs, which some spreadsheets take as the same.
 */
const FORMULA_START = /(?<=^|[,;\t\r\n])[ \u00a0"]*(?=[=+\-@\t\r\uff1d\uff0b\uff0d\uff20])/g;

/**
 * One cell, always quoted (so a `,` in it never splits it where `,` is the separator), and defused
 * by one rule: an apostrophe before every place a formula could start (FORMULA_START), as OWASP
 * advises. A spreadsheet shows a leading apostrophe as "this is text" and hides it; elsewhere it
 * reads as an apostrophe before the sign: `'+91 44 2345 6789`, `x;'=HYPERLINK(…)`, a message's
 * line `'- item`. The apostrophe is only added, so staff read what the visitor wrote. The header
 * and the inbox's export use it too.
 */
export function csvCell(value: string): string {
  const defused = value.replace(FORMULA_START, (before) => `${before}'`);
  return `"${defused.replace(/"/g, '""')}"`;
}
