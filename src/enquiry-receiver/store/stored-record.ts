/**
 * An accepted enquiry as one line of enquiries.jsonl: the definition's version ("v"), then its id,
 * when it arrived, every field of the definition in its order, and its delivery state when stored.
 * Lines of older versions stay readable: a field added since (`since` in the definition) reads as
 * empty, a field since removed is left out; lines written before versions existed are version 1.
 */
import {
  ENQUIRY_FIELD_NAMES,
  ENQUIRY_VERSION,
  enquiryOf,
  fieldSpec,
  type Enquiry,
} from "../../enquiry-contract/enquiry-fields";

/** stored-only: mail was not configured when it arrived; pending: not (yet) known to be sent. */
export interface StoredEnquiry extends Enquiry {
  id: string;
  receivedAt: string;
  delivery: "pending" | "stored-only";
}

/** The line to append: the version first, the fields in the definition's order, nothing else. */
export function storedLine(enquiry: StoredEnquiry): object {
  const { id, receivedAt, delivery } = enquiry;
  return { v: ENQUIRY_VERSION, id, receivedAt, ...enquiryOf((name) => enquiry[name]), delivery };
}

/** A parsed line as today's StoredEnquiry, or undefined when it is not an enquiry of any version. */
export function readStoredLine(value: unknown): StoredEnquiry | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const line = value as Record<string, unknown>;
  const version = line.v === undefined ? 1 : line.v;
  const { id, receivedAt, delivery } = line;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 1) return undefined;
  if (typeof id !== "string" || typeof receivedAt !== "string") return undefined;
  if (delivery !== "pending" && delivery !== "stored-only") return undefined;
  const fields: Partial<Enquiry> = {};
  for (const name of ENQUIRY_FIELD_NAMES) {
    const raw = line[name];
    const addedLater = (fieldSpec(name).since ?? 1) > version;
    if (typeof raw === "string") fields[name] = raw;
    else if (raw === undefined && addedLater) fields[name] = "";
    else return undefined;
  }
  return { id, receivedAt, ...(fields as Enquiry), delivery };
}
