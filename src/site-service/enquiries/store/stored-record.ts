/**
 * An accepted enquiry as its stored line (the JSON column of the enquiries table; before the
 * database, a line of enquiries.jsonl): the definition's version ("v"), then its id, when it arrived, every field of
 * the definition in its order, the spam screening's verdict
 * ("screening", since version 3) and its delivery state when stored. The honeypot is never stored:
 * its value is at most a signal in "screening".
 * Lines of older versions stay readable: a field added since (`since` in the definition) reads as
 * empty, a field since removed is left out, and a line without "screening" (written before it
 * existed) reads as never screened; lines written before versions existed are version 1.
 */
import {
  ENQUIRY_FIELD_NAMES,
  ENQUIRY_VERSION,
  enquiryOf,
  fieldSpec,
  type Enquiry,
} from "../../../enquiry-contract/enquiry-fields";
import type { Screening } from "../screening/screen";

/** stored-only: mail was not configured when it arrived; pending: not (yet) known to be sent. */
export interface StoredEnquiry extends Enquiry {
  id: string;
  receivedAt: string;
  /** The receiver always screens what it stores; undefined on lines written before screening existed. */
  screening?: Screening;
  delivery: "pending" | "stored-only";
}

/** The line to append: the version first, the fields in the definition's order, nothing else. */
export function storedLine(enquiry: StoredEnquiry): object {
  const { id, receivedAt, screening, delivery } = enquiry;
  return { v: ENQUIRY_VERSION, id, receivedAt, ...enquiryOf((name) => enquiry[name]), screening, delivery };
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
  if (line.screening === undefined) return { id, receivedAt, ...(fields as Enquiry), delivery };
  const screening = readScreening(line.screening);
  if (!screening) return undefined;
  return { id, receivedAt, ...(fields as Enquiry), screening, delivery };
}

function readScreening(value: unknown): Screening | undefined {
  const s = value as Partial<Record<keyof Screening, unknown>> | null | undefined;
  if (typeof s !== "object" || s === null) return undefined;
  if (s.verdict !== "clean" && s.verdict !== "suspect") return undefined;
  // Signal names are tokens ("url-in-name"): nothing that could reach a mail header as more than one.
  const token = (signal: unknown) => typeof signal === "string" && /^[a-z0-9-]+$/.test(signal);
  if (!Array.isArray(s.signals) || !s.signals.every(token)) return undefined;
  return { verdict: s.verdict, signals: s.signals as string[] };
}
