/**
 * One enquiry: everything the visitor sent, its screening, deliveries, notes and history, and the
 * actions (./enquiry-actions). Every value is rendered as React text, never as HTML: a message with
 * markup or script shows as the characters typed.
 */
import { useCallback, useEffect, useState } from "react";
import { get, type Enquiry, type Person, type Work } from "./api";
import { ENQUIRY_FIELDS } from "../enquiry-contract/enquiry-fields";
import { EnquiryActions } from "./enquiry-actions";
import { deliveryName, when } from "./format";
import { ReplyBox } from "./reply-box";
import { useSay } from "./status-message";

const CAPTIONS: Record<string, string | undefined> = Object.fromEntries(
  Object.entries(ENQUIRY_FIELDS).map(([name, spec]) => [name, "caption" in spec ? spec.caption : undefined]),
);

interface Props {
  id: string;
  me: Person;
  people: Person[];
  back: () => void;
  changes: number;
}

export function EnquiryView({ id, me, people, back }: Props) {
  const say = useSay();
  const [enquiry, setEnquiry] = useState<Enquiry | null | undefined>();
  // Opening it records a view in the audit; a reload after an action says refresh=1 and records none.
  const load = useCallback(
    (opening?: true) =>
      get<{ enquiry: Enquiry }>(`enquiries/${encodeURIComponent(id)}${opening === true ? "" : "?refresh=1"}`).then(
        (answer) => setEnquiry(answer.enquiry),
        (error: Error) => {
          setEnquiry(null);
          say(`The enquiry could not be loaded: ${error.message}`, "error");
        },
      ),
    [id, say],
  );
  useEffect(() => {
    void load(true);
  }, [load]);
  const setWork = (work: Work) => setEnquiry((e) => e && { ...e, work });
  if (enquiry === undefined) return <p>Loading…</p>;
  const backLink = (
    <button type="button" className="inbox-button-quiet" onClick={back}>
      ← Back to the list
    </button>
  );
  if (enquiry === null) return backLink;
  const owner = enquiry.work.owner;
  return (
    <article className="inbox-enquiry" aria-labelledby="enquiry-title">
      {backLink}
      <h2 id="enquiry-title">{enquiry.fields.name || "(no name)"}</h2>
      <p className="inbox-item-meta">
        <span>Received {when(enquiry.receivedAt)}</span>
        <span className="inbox-badge" data-testid="work-status">
          {enquiry.work.status}
        </span>
        <span data-testid="work-owner">{owner ? `Owner: ${owner.name ?? owner.id}` : "No owner"}</span>
      </p>
      <dl className="inbox-fields">
        {Object.entries(enquiry.fields).map(([name, value]) => (
          <div key={name} className={name === "message" ? "inbox-message" : undefined}>
            <dt>{CAPTIONS[name] ?? name}</dt>
            <dd>{value || "—"}</dd>
          </div>
        ))}
      </dl>
      <ReplyBox enquiry={enquiry} reload={load} />
      <EnquiryActions enquiry={enquiry} me={me} people={people} setWork={setWork} reload={load} back={back} />
      <Details enquiry={enquiry} />
    </article>
  );
}

function Details({ enquiry }: { enquiry: Enquiry }) {
  const screening = enquiry.screening;
  const signals = Array.isArray(screening?.signals) ? (screening.signals as string[]) : [];
  return (
    <>
      <section aria-labelledby="screening-title">
        <h3 id="screening-title">Screening</h3>
        <p>
          {screening ? `${screening.verdict}${signals.length ? `: ${signals.join(", ")}` : ""}` : "not screened"}
          {enquiry.clearedAt && ` (marked not spam ${when(enquiry.clearedAt)})`}
        </p>
      </section>
      <section aria-labelledby="deliveries-title">
        <h3 id="deliveries-title">Deliveries</h3>
        <ul>
          {enquiry.outbox.map((o) => (
            <li key={o.destination}>
              {deliveryName(o.destination, enquiry.replies)}:{" "}
              {o.state === "done" ? "delivered" : o.state === "due" ? "retrying" : o.state}, {o.attempts} attempts
              {o.lastError && ` (${o.lastError})`}
            </li>
          ))}
          {enquiry.deliveries.map((d, i) => (
            <li key={i}>
              {when(d.at)}: {d.outcome}
              {d.detail && ` (${d.detail})`}
            </li>
          ))}
          {enquiry.outbox.length + enquiry.deliveries.length === 0 && <li>none recorded</li>}
        </ul>
      </section>
      <section aria-labelledby="notes-title">
        <h3 id="notes-title">Notes</h3>
        <ul className="inbox-notes" data-testid="notes">
          {enquiry.notes.map((n, i) => (
            <li key={i}>
              <p className="inbox-note-text">{n.text}</p>
              <p className="inbox-muted">
                {n.by ?? "someone"}, {when(n.at)}
              </p>
            </li>
          ))}
          {enquiry.notes.length === 0 && <li>No notes yet.</li>}
        </ul>
      </section>
      <section aria-labelledby="history-title">
        <h3 id="history-title">History</h3>
        <ol className="inbox-history">
          {enquiry.history.map((h, i) => (
            <li key={i}>
              {when(h.at)}: {h.what} ({h.by ?? "the system"})
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
