/** The `enquiries list` table: one line per enquiry, long texts cut to fit a terminal. */
import type { EnquiryRecord } from "../store/store";

const COLUMNS: Array<{ title: string; width: number; value: (e: EnquiryRecord) => string }> = [
  { title: "received (UTC)", width: 16, value: (e) => e.receivedAt.slice(0, 16).replace("T", " ") },
  { title: "id", width: 36, value: (e) => e.id },
  { title: "delivery", width: 11, value: (e) => e.delivery },
  { title: "tries", width: 5, value: (e) => String(e.attempts) },
  { title: "name", width: 20, value: (e) => e.name },
  { title: "e-mail", width: 28, value: (e) => e.email },
  { title: "phone", width: 16, value: (e) => e.phone },
  { title: "message", width: 40, value: (e) => e.message },
];

export function formatTable(enquiries: readonly EnquiryRecord[]): string[] {
  const row = (cells: string[]) => cells.join("  ").trimEnd();
  const lines = [row(COLUMNS.map((c) => fit(c.title, c.width))), row(COLUMNS.map((c) => "-".repeat(c.width)))];
  for (const enquiry of enquiries) {
    lines.push(row(COLUMNS.map((c) => fit(c.value(enquiry), c.width))));
    if (enquiry.lastError && enquiry.delivery !== "delivered") lines.push(`    last error: ${enquiry.lastError}`);
  }
  return lines;
}

/** One line of exactly `width` code points: newlines and tabs become spaces, overflow ends in "…". */
function fit(text: string, width: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  const cut = chars.length > width ? [...chars.slice(0, width - 1), "…"] : chars;
  return cut.join("").padEnd(width + (cut.join("").length - cut.length));
}
