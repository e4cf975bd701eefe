/**
 * The `enquiries list` table: one line per enquiry, long texts cut to fit a terminal. After the
 * record's own columns, a column per field of the definition, titled with its caption: required
 * fields first (the ones every row fills), then optional ones, free texts last (cut the most).
 * Under a row, what else a person should know of it: the spam screening's signals (or that it was
 * cleared as not spam), the last delivery error, an outbox destination not (yet) delivered to.
 * The delivery column is the e-mail's; each other channel of the enquiries shown (the webhook) gets
 * a column of its own after it.
 */
import { ENQUIRY_FIELD_NAMES, fieldSpec, type EnquiryFieldKind } from "../../../enquiry-contract/enquiry-fields";
import type { EnquiryRecord } from "../store/store";

interface Column {
  title: string;
  width: number;
  value: (e: EnquiryRecord) => string;
}

/** Room for a field of each kind, in characters. */
const WIDTH: Record<EnquiryFieldKind, number> = { text: 20, email: 28, tel: 16, multiline: 40 };

const placeOf = (kind: EnquiryFieldKind, required: boolean) => (kind === "multiline" ? 2 : required ? 0 : 1);

const FIELD_COLUMNS: Column[] = ENQUIRY_FIELD_NAMES.map((name) => ({ name, ...fieldSpec(name) }))
  .sort((a, b) => placeOf(a.kind, a.required) - placeOf(b.kind, b.required))
  .map(({ name, caption, kind }) => ({ title: caption.toLowerCase(), width: WIDTH[kind], value: (e) => e[name] }));

const COLUMNS: Column[] = [
  { title: "received (UTC)", width: 16, value: (e) => e.receivedAt.slice(0, 16).replace("T", " ") },
  { title: "id", width: 36, value: (e) => e.id },
  { title: "delivery", width: 11, value: (e) => e.delivery },
  { title: "tries", width: 5, value: (e) => String(e.attempts) },
  ...FIELD_COLUMNS,
];

type OutboxRow = NonNullable<EnquiryRecord["outbox"]>[number];

/** A channel's row in a word: delivered, pending (not tried yet), retrying, failed (for good), stopped (410). */
function stateWord(row: OutboxRow | undefined): string {
  if (!row) return "-";
  if (row.state === "done") return "delivered";
  if (row.state === "due") return row.attempts === 0 ? "pending" : "retrying";
  return row.state;
}

/**
 * The channels this enquiry has not been delivered to: the e-mail by its delivery state, others by their outbox row.
 */
export function undeliveredChannels(enquiry: EnquiryRecord): string[] {
  const email = enquiry.delivery === "pending" || enquiry.delivery === "failed" ? ["email"] : [];
  const others = (enquiry.outbox ?? []).filter((r) => r.destination !== "email" && r.state !== "done");
  return [...email, ...others.map((r) => r.destination)];
}

export function formatTable(enquiries: readonly EnquiryRecord[]): string[] {
  const row = (cells: string[]) => cells.join("  ").trimEnd();
  const channels = [
    ...new Set(enquiries.flatMap((e) => (e.outbox ?? []).map((r) => r.destination).filter((d) => d !== "email"))),
  ].sort();
  const columns: Column[] = [
    ...COLUMNS.slice(0, 4),
    ...channels.map((channel) => ({
      title: channel,
      width: 11,
      value: (e: EnquiryRecord) => stateWord(e.outbox?.find((r) => r.destination === channel)),
    })),
    ...COLUMNS.slice(4),
  ];
  const lines = [row(columns.map((c) => fit(c.title, c.width))), row(columns.map((c) => "-".repeat(c.width)))];
  for (const enquiry of enquiries) {
    lines.push(row(columns.map((c) => fit(c.value(enquiry), c.width))));
    if (enquiry.screening?.verdict === "suspect") {
      const signals = enquiry.screening.signals.join(", ");
      lines.push(
        enquiry.clearedAt
          ? `    cleared as not spam ${enquiry.clearedAt.slice(0, 16).replace("T", " ")} (flagged: ${signals})`
          : `    possible spam: ${signals}`,
      );
    }
    if (enquiry.lastError && enquiry.delivery !== "delivered") lines.push(`    last error: ${enquiry.lastError}`);
    for (const row of enquiry.outbox ?? []) {
      // Sent, or not tried yet (just stored, the e-mail with every enquiry): nothing to say.
      if (row.state === "done" || row.attempts === 0) continue;
      const state =
        row.state === "failed" ? "FAILED for good" : row.state === "stopped" ? "stopped (410 Gone)" : "to try again";
      lines.push(
        `    ${row.destination}: ${state} after ${row.attempts} attempt(s)${row.lastError ? `; last error: ${row.lastError}` : ""}`,
      );
    }
  }
  return lines;
}

/** One line of exactly `width` code points: newlines and tabs become spaces, overflow ends in "…". */
function fit(text: string, width: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  const cut = chars.length > width ? [...chars.slice(0, width - 1), "…"] : chars;
  return cut.join("").padEnd(width + (cut.join("").length - cut.length));
}
