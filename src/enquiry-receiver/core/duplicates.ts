/**
 * Recognises an enquiry sent again. A visitor whose answer never arrived (a proxy's timeout while
 * the service was stalled, a dropped connection) is told to try again, and does; if the first
 * attempt was stored after all, the resend must not store a second copy. The same fields within
 * DUPLICATE_WINDOW_MS of a stored enquiry are that enquiry: the resend is answered as accepted, under
 * the first id, and nothing more is stored or e-mailed.
 *
 * Kept in memory per process, filled from the store at first use, so a restart still knows the
 * enquiries of the last day. Two identical requests at the same moment (a double submit) wait for
 * each other: one stores, the other is told it is a duplicate.
 */
import { createHash } from "node:crypto";
import { ENQUIRY_FIELD_NAMES, fieldSpec, type Enquiry } from "../../enquiry-contract/enquiry-fields";
import type { EnquiryStore } from "../store/store";

export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Every field's value in the definition's order; an address in any case is the same address. */
export function fingerprint(enquiry: Enquiry): string {
  const values = ENQUIRY_FIELD_NAMES.map((name) =>
    fieldSpec(name).kind === "email" ? enquiry[name].toLowerCase() : enquiry[name],
  );
  return createHash("sha256").update(JSON.stringify(values)).digest("base64url");
}

interface Known {
  id: string;
  at: number;
}

/** The outcome of a claim: an earlier copy's id, or the right (and duty) to store it now. */
export type Claim = { duplicateOf: string } | { store(id: string, at: number): void; abandon(): void };

export class RecentEnquiries {
  private readonly known = new Map<string, Known>();
  private readonly inProgress = new Map<string, Promise<void>>();
  private loading: Promise<void> | undefined;

  /** forgetUndelivered: enquiries whose e-mail failed are not known (ENQUIRY_AWAIT_DELIVERY: the visitor was told to resend). */
  constructor(
    private readonly store: Pick<EnquiryStore, "list">,
    private readonly options: { forgetUndelivered?: boolean; windowMs?: number } = {},
  ) {}

  private get windowMs(): number {
    return this.options.windowMs ?? DUPLICATE_WINDOW_MS;
  }

  async claim(enquiry: Enquiry, now: number): Promise<Claim> {
    await (this.loading ??= this.load(now));
    const key = fingerprint(enquiry);
    for (;;) {
      const pending = this.inProgress.get(key);
      if (!pending) break;
      await pending;
    }
    const known = this.known.get(key);
    if (known && now - known.at <= this.windowMs) return { duplicateOf: known.id };
    this.prune(now);

    let settle!: () => void;
    this.inProgress.set(key, new Promise<void>((resolve) => (settle = resolve)));
    const finish = () => {
      this.inProgress.delete(key);
      settle();
    };
    return {
      store: (id, at) => {
        this.known.set(key, { id, at });
        finish();
      },
      abandon: finish,
    };
  }

  private async load(now: number): Promise<void> {
    // Unreadable history only weakens the recognition of resends; storing reports real disk trouble.
    const { enquiries } = await this.store.list().catch(() => ({ enquiries: [] }));
    for (const e of enquiries) {
      if (this.options.forgetUndelivered && e.delivery === "failed") continue;
      const at = Date.parse(e.receivedAt);
      if (now - at <= this.windowMs) this.known.set(fingerprint(e), { id: e.id, at });
    }
  }

  private prune(now: number): void {
    if (this.known.size < 10_000) return;
    for (const [key, { at }] of this.known) if (now - at > this.windowMs) this.known.delete(key);
  }
}
