/**
 * Where enquiries live: append-only JSONL files in the data folder.
 *   enquiries.jsonl   one line per accepted enquiry, written before the visitor is answered (./stored-record)
 *   deliveries.jsonl  one line per delivery attempt's outcome
 *   reviews.jsonl     one line per suspect enquiry a person marked as not spam (`enquiries not-spam`)
 * Nothing is rewritten in place; an enquiry's state is its own line's, overridden by its latest
 * delivery line, and cleared of suspicion by a review line.
 */
import path from "node:path";
import { AppendLog, readJsonLines } from "./append-log";
import { readStoredLine, storedLine, type StoredEnquiry } from "./stored-record";

export type { StoredEnquiry };

/** stored-only: mail was not configured when it arrived; pending: not (yet) known to be sent. */
export type DeliveryState = "pending" | "delivered" | "failed" | "stored-only";

export interface DeliveryEvent {
  id: string;
  at: string;
  delivery: "delivered" | "failed";
  messageId?: string;
  error?: string;
}

/** A person's word on a suspect enquiry: it is not spam. */
export interface ReviewEvent {
  id: string;
  at: string;
  review: "not-spam";
}

export interface EnquiryRecord extends Omit<StoredEnquiry, "delivery"> {
  delivery: DeliveryState;
  attempts: number;
  lastAttemptAt?: string;
  lastError?: string;
  /** When a person marked this suspect enquiry as not spam. */
  clearedAt?: string;
}

export class EnquiryStore {
  readonly enquiriesFile: string;
  readonly deliveriesFile: string;
  readonly reviewsFile: string;
  private readonly enquiries: AppendLog;
  private readonly deliveries: AppendLog;
  private readonly reviews: AppendLog;

  constructor(readonly dir: string) {
    this.enquiriesFile = path.join(dir, "enquiries.jsonl");
    this.deliveriesFile = path.join(dir, "deliveries.jsonl");
    this.reviewsFile = path.join(dir, "reviews.jsonl");
    this.enquiries = new AppendLog(this.enquiriesFile);
    this.deliveries = new AppendLog(this.deliveriesFile);
    this.reviews = new AppendLog(this.reviewsFile);
  }

  add(enquiry: StoredEnquiry): Promise<void> {
    return this.enquiries.append(storedLine(enquiry));
  }

  recordDelivery(event: DeliveryEvent): Promise<void> {
    return this.deliveries.append(event);
  }

  recordReview(event: ReviewEvent): Promise<void> {
    return this.reviews.append(event);
  }

  /** All enquiries, oldest first, each with its current delivery state. */
  async list(): Promise<{ enquiries: EnquiryRecord[]; damagedLines: number }> {
    const stored = await readJsonLines(this.enquiriesFile);
    const events = await readJsonLines(this.deliveriesFile);
    const reviews = await readJsonLines(this.reviewsFile);
    const byId = new Map<string, EnquiryRecord>();
    let damagedLines = stored.damaged + events.damaged + reviews.damaged;
    for (const line of stored.records) {
      const record = readStoredLine(line);
      if (record) byId.set(record.id, { ...record, attempts: 0 });
      else damagedLines += 1;
    }
    for (const event of events.records) {
      if (!isDeliveryEvent(event)) {
        damagedLines += 1;
        continue;
      }
      const target = byId.get(event.id);
      if (!target) continue;
      target.delivery = event.delivery;
      target.attempts += 1;
      target.lastAttemptAt = event.at;
      target.lastError = event.error;
    }
    for (const review of reviews.records) {
      if (!isReviewEvent(review)) {
        damagedLines += 1;
        continue;
      }
      const target = byId.get(review.id);
      if (target && target.clearedAt === undefined) target.clearedAt = review.at;
    }
    return { enquiries: [...byId.values()], damagedLines };
  }
}

function isReviewEvent(value: unknown): value is ReviewEvent {
  const v = value as Partial<Record<keyof ReviewEvent, unknown>> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.id === "string" &&
    typeof v.at === "string" &&
    v.review === "not-spam"
  );
}

function isDeliveryEvent(value: unknown): value is DeliveryEvent {
  const v = value as Partial<Record<keyof DeliveryEvent, unknown>> | null;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.id === "string" &&
    typeof v.at === "string" &&
    (v.delivery === "delivered" || v.delivery === "failed")
  );
}
