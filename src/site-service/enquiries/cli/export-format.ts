/**
 * `enquiries export`: every enquiry as JSON lines (what `list --json` gives) or as CSV for a
 * spreadsheet: a header, then one row per enquiry, RFC 4180 quoting. A cell that a spreadsheet would
 * take for a formula (=, +, -, @ first) is written with a leading apostrophe: enquiries come from
 * anyone on the internet.
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

/** One cell, quoted when needed, a would-be formula defused (the inbox's export uses it too). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
