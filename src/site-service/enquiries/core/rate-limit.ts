/**
 * Sliding-window limit per client, in memory: it protects the mailbox and the disk from one noisy
 * client, and a restart forgetting it is harmless. Several processes each keep their own count.
 */
export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

const SWEEP_EVERY = 1000;

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private calls = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Takes one of the client's slots at `now` (ms), or says how long until the oldest frees up. */
  take(key: string, now: number): Take {
    const recent = this.recent(key, now);
    if (recent.length >= this.limit) {
      const wait = recent[0]! + this.windowMs - now;
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
    }
    recent.push(now);
    this.hits.set(key, recent);
    if (++this.calls % SWEEP_EVERY === 0) this.sweep(now);
    return { ok: true };
  }

  /** Gives back a slot taken at `at` (the enquiry it was for could not be stored). */
  release(key: string, at: number): void {
    const times = this.hits.get(key);
    const index = times?.indexOf(at) ?? -1;
    if (times && index >= 0) times.splice(index, 1);
  }

  private recent(key: string, now: number): number[] {
    return (this.hits.get(key) ?? []).filter((t) => t > now - this.windowMs);
  }

  // Forget clients with nothing left in the window, so memory follows the active clients only.
  private sweep(now: number): void {
    for (const key of [...this.hits.keys()]) {
      if (this.recent(key, now).length === 0) this.hits.delete(key);
    }
  }
}
