/**
 * Recognises an enquiry sent again. A visitor whose answer never arrived (a proxy's timeout while
 * the service was stalled, a dropped connection) is told to try again, and does; if the first
 * attempt was stored after all, the resend must not store a second copy. The same fields within
 * DUPLICATE_WINDOW_MS of a stored enquiry are that enquiry: the resend is answered as accepted, under
 * the first id, and nothing more is stored or e-mailed.
 *
 * The store decides, in the transaction that stores (../store), so the rule holds across processes
 * and instances sharing a database. Within a process, two identical requests at the same moment (a
 * double submit) also wait for each other here: the second learns the outcome of the first (stored,
 * or with ENQUIRY_AWAIT_DELIVERY, failed to deliver and so not a duplicate) before it is looked up.
 */
import type { Enquiry } from "../../../enquiry-contract/enquiry-fields";
import { fingerprint } from "../store/duplicate-key";
import type { DuplicateRule, EnquiryStore } from "../store/store";

export { fingerprint };

export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

/** The outcome of a claim: an earlier copy's id, or the rule to store it under, and the duty to release it. */
export type Claim = { duplicateOf: string } | { rule: DuplicateRule; release(): void };

export class RecentEnquiries {
  private readonly inProgress = new Map<string, Promise<void>>();

  /**
   * forgetUndelivered: enquiries whose e-mail failed are not known (ENQUIRY_AWAIT_DELIVERY: the visitor was told to
   * resend).
   */
  constructor(
    private readonly store: Pick<EnquiryStore, "findDuplicate">,
    private readonly options: { forgetUndelivered?: boolean; windowMs?: number } = {},
  ) {}

  async claim(enquiry: Enquiry, now: number): Promise<Claim> {
    const key = fingerprint(enquiry);
    for (;;) {
      const pending = this.inProgress.get(key);
      if (!pending) break;
      await pending;
    }
    let settle!: () => void;
    this.inProgress.set(key, new Promise<void>((resolve) => (settle = resolve)));
    const release = () => {
      this.inProgress.delete(key);
      settle();
    };
    const rule: DuplicateRule = {
      key,
      since: new Date(now - (this.options.windowMs ?? DUPLICATE_WINDOW_MS)).toISOString(),
      ignoreFailed: this.options.forgetUndelivered ?? false,
    };
    // An unreachable store only weakens this early answer; storing checks again and reports real trouble.
    const duplicateOf = await this.store.findDuplicate(rule).catch(() => undefined);
    if (duplicateOf === undefined) return { rule, release };
    release();
    return { duplicateOf };
  }
}
