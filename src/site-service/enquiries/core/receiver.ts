/** A receiver: the handler wired to its store, limiter and outbox, with deliveries in the background. */
import { createMailer, type Mailer } from "../mail/mailer";
import { receiverOutbox, type OutboxOptions } from "../outbox/receiver-outbox";
import { openStore, type StoreOptions } from "../store/open-store";
import type { EnquiryStore, StoreReport } from "../store/store";
import { runtimeEnv } from "../../service/env";
import { loadConfig, missingMailSettings, type EnquiryConfig } from "./config";
import { RecentEnquiries } from "./duplicates";
import { handleEnquiry, type HandlerContext } from "./handler";
import { purgeExpired } from "./retention";
import { SlidingWindowLimiter } from "./rate-limit";
import type { EnquiryRequest } from "./request-checks";
import type { EnquiryResponse } from "./responses";

export type Logger = Pick<Console, "info" | "warn" | "error">;

export interface Receiver {
  config: EnquiryConfig;
  store: EnquiryStore;
  handleEnquiry(req: EnquiryRequest): Promise<EnquiryResponse>;
  /** Resolves when no delivery is under way (tests, graceful shutdown). */
  drain(): Promise<void>;
  /** After drain: closes the store (its file, or its connections). */
  close(): Promise<void>;
  /** Sends what is due in the outbox (the service calls it on a timer; each enquiry stored does too). */
  sendDue(): Promise<unknown>;
  /** ENQUIRY_RETENTION_DAYS: removes older enquiries (the service, daily); how many, or undefined when off. */
  purgeExpired(): Promise<number | undefined>;
}

export interface ReceiverOptions {
  /** Replaces the SMTP mailer built from the config; null turns delivery off. */
  mailer?: Mailer | null;
  now?: () => number;
  log?: Logger;
  /** The store's (tests: a full SQLite file; the function host: one PostgreSQL connection). */
  store?: StoreOptions;
  /** The outbox's clock, jitter and webhook timeout (tests). */
  outbox?: OutboxOptions;
}

export function createReceiver(config: EnquiryConfig, options: ReceiverOptions = {}): Receiver {
  const log = options.log ?? console;
  const now = options.now ?? Date.now;
  const store = openStore(config, { log, now, ...options.store });
  const mailer = options.mailer === undefined ? createMailer(config) : (options.mailer ?? undefined);
  const missing = missingMailSettings(config);
  if (!mailer) {
    log.warn(`enquiries will be stored only: ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not set`);
  }
  // Opened now, so the start-up log says what it found; a failure is retried by the first enquiry.
  store.ready().then(
    (report) => log.info(describeStart(report)),
    (error: Error) => log.error(`enquiry store: cannot open ${store.where}: ${error.message}`),
  );
  log.info(
    `enquiry receiver: storing enquiries in ${store.where}${mailer ? ` and e-mailing them to ${config.to}` : ""}${
      mailer && config.suspectTo ? ` (possible spam to ${config.suspectTo})` : ""
    }`,
  );

  const underWay = new Set<Promise<unknown>>();
  // Tracked: drain and shutdown wait for a pass under way.
  const track = <T>(work: Promise<T>): Promise<T | void> => {
    const tracked = work.catch((error: Error) => log.error(`enquiry outbox: ${error.message}`));
    underWay.add(tracked);
    void tracked.finally(() => underWay.delete(tracked));
    return tracked;
  };
  // The e-mail and the webhook alike: rows of the outbox, written with the enquiry.
  const outbox = receiverOutbox(config, store, mailer, log, { now, ...options.outbox });
  const sendDue = () => track(outbox.sendDue());
  const sendEnquiry = async (id: string, finalEmail: boolean) =>
    (await track(outbox.sendEnquiry(id, finalEmail))) ?? undefined;

  const drain = async () => {
    while (underWay.size > 0) await Promise.allSettled([...underWay]);
  };

  const ctx: HandlerContext = {
    config,
    store,
    limiter: new SlidingWindowLimiter(config.rateLimit, config.rateWindowSeconds * 1000),
    recent: new RecentEnquiries(store, { forgetUndelivered: config.awaitDelivery }),
    mailer,
    outbox: { entriesFor: outbox.entriesFor, sendDue, sendEnquiry },
    now,
    log,
  };
  return {
    config,
    store,
    handleEnquiry: (req) => handleEnquiry(ctx, req),
    drain,
    sendDue,
    purgeExpired: () => purgeExpired(store, config.retentionDays, now(), log),
    async close() {
      await drain();
      await store.close();
    },
  };
}

/** One line: the engine, what was checked, the schema, and what came over from JSON-lines files. */
export function describeStart(report: StoreReport): string {
  const { imported: i } = report;
  const migrated = report.migrationsApplied.length > 0 ? ` (applied ${report.migrationsApplied.join(", ")})` : "";
  const moved =
    i.files.length > 0
      ? `; imported ${i.enquiries} enquiries, ${i.deliveries} delivery records and ${i.reviews} reviews from ${i.files.length} JSON-lines file(s), then removed them${
          i.unreadableLines > 0 ? ` (${i.unreadableLines} unreadable line(s) kept in *.unreadable)` : ""
        }`
      : "";
  return `enquiry store: ${report.engine} ${report.where} (${report.checked}), schema version ${report.schemaVersion}${migrated}${moved}`;
}

const SHARED = Symbol.for("cyrus.enquiry-receiver");

/**
 * The process's receiver, configured from its environment. Kept on globalThis because
 * `gatsby serve` and `gatsby develop` load a function's bundle afresh for every request, which would
 * reset the rate limits and the append queue and repeat the start-up message each time.
 * (In `gatsby develop`, restart after changing this code: the first receiver stays.)
 */
export function sharedReceiver(): Receiver {
  const holder = globalThis as typeof globalThis & { [SHARED]?: Receiver };
  // A function instance serves one request at a time: one PostgreSQL connection, kept across invocations.
  return (holder[SHARED] ??= createReceiver(loadConfig(runtimeEnv()), { store: { connections: 1 } }));
}
