/**
 * Counts by status (each a button showing the list of that status; flagged, the flagged ones) and the
 * median time from received to answered over 30 and 90 days.
 */
import { useEffect, useState } from "react";
import { get, STATUSES, type Counts, type Filters } from "./api";
import { duration } from "./format";

interface Period {
  days: number;
  answered: number;
  medianMs: number | null;
}

export function ListSummary({ changes, pick }: { changes: number; pick: (filters: Filters) => void }) {
  const [counts, setCounts] = useState<Counts | undefined>();
  const [periods, setPeriods] = useState<Period[]>([]);
  useEffect(() => {
    get<Counts>("counts")
      .then(setCounts)
      .catch(() => undefined);
    get<{ periods: Period[] }>("answer-times")
      .then((a) => setPeriods(a.periods))
      .catch(() => undefined);
  }, [changes]);
  return (
    <section className="inbox-summary" aria-labelledby="summary-title">
      <h2 id="summary-title" className="inbox-visually-hidden">
        Counts
      </h2>
      <ul className="inbox-counts" data-testid="counts">
        {STATUSES.map((status) => (
          <li key={status}>
            <button type="button" className="inbox-count" onClick={() => pick({ status })}>
              <span className="inbox-count-n" data-status={status}>
                {counts?.byStatus[status] ?? "…"}
              </span>{" "}
              {status}
            </button>
          </li>
        ))}
        <li>
          <button type="button" className="inbox-count" onClick={() => pick({ flagged: "true" })}>
            <span className="inbox-count-n">{counts?.flagged ?? "…"}</span> flagged
          </button>
        </li>
      </ul>
      <p className="inbox-muted">
        Median time to an answer:{" "}
        {periods.map((p, i) => (
          <span key={p.days}>
            {i > 0 && "; "}
            last {p.days} days {duration(p.medianMs)} ({p.answered} answered)
          </span>
        ))}
      </p>
    </section>
  );
}
