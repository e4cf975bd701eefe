/**
 * Working an enquiry: status, owner, a note, spam or not, re-sending a failed delivery, erasure.
 * Changes carry the version they were made on; a 409 (someone changed it meanwhile) shows what it is
 * now and keeps what this person chose or typed, to apply again if they still mean it.
 */
import { useState } from "react";
import { ApiError, post, STATUSES, type Enquiry, type Person, type Work } from "./api";
import { EraseButton } from "./erase-button";
import { deliveryName } from "./format";
import { useSay } from "./status-message";

interface Props {
  enquiry: Enquiry;
  me: Person;
  people: Person[];
  setWork: (work: Work) => void;
  reload: () => Promise<void>;
  back: () => void;
}

export function EnquiryActions({ enquiry, me, people, setWork, reload, back }: Props) {
  const say = useSay();
  const { work } = enquiry;
  const [status, setStatus] = useState(work.status);
  const [ownerId, setOwnerId] = useState(String(work.ownerId ?? ""));
  const [note, setNote] = useState("");
  const nameOf = (id?: number | null) =>
    id == null ? "no one" : (people.find((p) => p.id === id)?.name ?? `person ${id}`);

  const run = async (what: string, action: () => Promise<unknown>) => {
    try {
      await action();
      say(what);
      await reload();
    } catch (error) {
      if (error instanceof ApiError && error.status === 409 && error.body.work) {
        const now = error.body.work as Work;
        setWork({ ...now, owner: now.ownerId == null ? null : { id: now.ownerId, name: nameOf(now.ownerId) } });
        say(
          `Not saved: someone changed this enquiry meanwhile. It is now "${now.status}", owner ${nameOf(now.ownerId)}. ` +
            "Your choice is still here: apply it again if you still mean it.",
          "error",
        );
      } else say(`Not saved: ${(error as Error).message}`, "error");
    }
  };
  const change = (what: string, body: { status?: string; ownerId?: number | null }) =>
    run(what, () => post(`enquiries/${enquiry.id}/work`, { version: work.version, ...body }));
  const flagged = enquiry.screening?.verdict === "suspect" && !enquiry.clearedAt;
  const failed = enquiry.outbox.filter((o) => o.state === "failed" || o.state === "stopped");

  return (
    <section className="inbox-actions" aria-labelledby="actions-title">
      <h3 id="actions-title">Work on it</h3>
      <div className="inbox-action-row">
        <label htmlFor="work-status">Status</label>
        <select id="work-status" value={status} onChange={(e) => setStatus(e.target.value)}>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        <button type="button" className="inbox-button" onClick={() => change(`Status: ${status}.`, { status })}>
          Set status
        </button>
      </div>
      <div className="inbox-action-row">
        <button type="button" className="inbox-button" onClick={() => change("It is yours.", { ownerId: me.id })}>
          Take it
        </button>
        <label htmlFor="work-owner">or give it to</label>
        <select id="work-owner" value={ownerId} onChange={(e) => setOwnerId(e.target.value)}>
          <option value="">no one</option>
          {people.map((p) => (
            <option key={p.id} value={String(p.id)}>
              {p.name}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="inbox-button-quiet"
          onClick={() =>
            change(`Given to ${nameOf(ownerId ? Number(ownerId) : null)}.`, {
              ownerId: ownerId ? Number(ownerId) : null,
            })
          }
        >
          Give
        </button>
      </div>
      <form
        className="inbox-note-form"
        onSubmit={(e) => {
          e.preventDefault();
          void run("Note added.", async () => {
            await post(`enquiries/${enquiry.id}/notes`, { text: note });
            setNote("");
          });
        }}
      >
        <label htmlFor="note">Internal note (never sent to the visitor)</label>
        <textarea id="note" value={note} maxLength={5000} rows={3} onChange={(e) => setNote(e.target.value)} />
        <button type="submit" className="inbox-button" disabled={!note.trim()}>
          Add note
        </button>
      </form>
      <div className="inbox-action-row">
        {work.status !== "spam" && (
          <button
            type="button"
            className="inbox-button-quiet"
            onClick={() => change("Marked as spam.", { status: "spam" })}
          >
            Spam
          </button>
        )}
        {flagged && (
          <button
            type="button"
            className="inbox-button-quiet"
            onClick={() => run("Marked not spam.", () => post(`enquiries/${enquiry.id}/not-spam`))}
          >
            Not spam
          </button>
        )}
        {failed.map((o) => (
          <button
            key={o.destination}
            type="button"
            className="inbox-button-quiet"
            onClick={() =>
              run(`Re-sending (${deliveryName(o.destination, enquiry.replies)}).`, () =>
                post(`enquiries/${enquiry.id}/resend`, { destination: o.destination }),
              )
            }
          >
            Re-send ({deliveryName(o.destination, enquiry.replies)})
          </button>
        ))}
        <EraseButton id={enquiry.id} done={back} />
      </div>
    </section>
  );
}
