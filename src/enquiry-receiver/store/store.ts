/**
 * Where enquiries live: two append-only JSONL files in the data folder.
 *   enquiries.jsonl   one line per accepted enquiry, written before the visitor is answered (./stored-record)
 *   deliveries.jsonl  one line per delivery attempt's outcome
 * Nothing is rewritten in place; an enquiry's state is its own line's, overridden by its latest
 * delivery line.
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

export interface EnquiryRecord extends Omit<StoredEnquiry, "delivery"> {
  delivery: DeliveryState;
  attempts: number;
  lastAttemptAt?: string;
  lastError?: string;
}

export class EnquiryStore {
  readonly enquiriesFile: string;
  readonly deliveriesFile: string;
  private readonly enquiries: AppendLog;
  private readonly deliveries: AppendLog;

  constructor(readonly dir: string) {
    this.enquiriesFile = path.join(dir, "enquiries.jsonl");
    this.deliveriesFile = path.join(dir, "deliveries.jsonl");
    this.enquiries = new AppendLog(this.enquiriesFile);
    this.deliveries = new AppendLog(this.deliveriesFile);
  }

  add(enquiry: StoredEnquiry): Promise<void> {
    return this.enquiries.append(storedLine(enquiry));
  }

  recordDelivery(event: DeliveryEvent): Promise<void> {
    return this.deliveries.append(event);
  }

  /** All enquiries, oldest first, each with its current delivery state. */
  async list(): Promise<{ enquiries: EnquiryRecord[]; damagedLines: number }> {
    const stored = await readJsonLines(this.enquiriesFile);
    const events = await readJsonLines(this.deliveriesFile);
    const byId = new Map<string, EnquiryRecord>();
    let damagedLines = stored.damaged + events.damaged;
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
    return { enquiries: [...byId.values()], damagedLines };
  }
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
