/**
 * At most `max` at once; the rest wait their turn, in order, for as long as it takes. The PostgreSQL
 * engine queues for its pool here rather than in pg's pool, whose wait for a free connection shares
 * the 5 s bound on connecting: under a burst (500 enquiries at once on 10 connections) enquiries
 * would fail for waiting their turn, where SQLite's queue makes them wait.
 */
export function gate(max: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    if (active < max) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // The slot goes straight to the next in line (active stays the same), or is given back.
      const next = waiting.shift();
      if (next) next();
      else active -= 1;
    }
  };
}
