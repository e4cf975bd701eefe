/** An enquiry as a row: the stored line in `data`, and the columns the store looks up. */
import { fingerprint } from "./duplicate-key";
import { storedLine, type StoredEnquiry } from "./stored-record";

export const INSERT_ENQUIRY = `INSERT INTO enquiries (id, received_at, email, duplicate_key, verdict, data)
  VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`;

export function enquiryRow(enquiry: StoredEnquiry): (string | null)[] {
  return [
    enquiry.id,
    enquiry.receivedAt,
    enquiry.email.toLowerCase(),
    fingerprint(enquiry),
    enquiry.screening?.verdict ?? null,
    JSON.stringify(storedLine(enquiry)),
  ];
}
