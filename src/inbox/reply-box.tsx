/**
 * Answering the visitor from the inbox: the replies sent so far with how their sending goes, and a box
 * to write the next (a saved answer can be inserted and edited). One key per draft goes with the send,
 * so a double click or a retry after a lost answer sends one e-mail; a refused send keeps the draft.
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import "./reply.css";
import { ApiError, get, post, type Enquiry, type Me, type Reply, type SavedAnswer } from "./api";
import { fillAnswer, insertInto } from "./fill-answer";
import { when } from "./format";
import { hrefOf } from "./use-route";

/** While a reply is still being sent, the enquiry is asked again this often, this many times at most. */
const SENDING_POLL_MS = 3_000;
const SENDING_POLLS = 20;
export const REPEATED_WITH_CHANGES =
  "Not sent: this reply had already gone as first written (see Replies). Your changes are still here: Send " +
  "sends them as a new reply.";

interface Props {
  enquiry: Enquiry;
  reload: () => Promise<void>;
}

export function ReplyBox({ enquiry, reload }: Props) {
  const { replies = [], replyable } = enquiry;
  const sending = replies.some((r) => r.delivery.state === "due");
  const polls = useRef(0);
  // The polls' limit counts from the last reply written: a later one is followed as the first was.
  const written = useRef(replies.length);
  useEffect(() => {
    if (replies.length !== written.current) {
      written.current = replies.length;
      polls.current = 0;
    }
    if (!sending || polls.current >= SENDING_POLLS) return;
    const timer = window.setTimeout(() => {
      polls.current += 1;
      void reload();
    }, SENDING_POLL_MS);
    return () => window.clearTimeout(timer);
  }, [sending, replies, reload]);
  // A service without replies says nothing of them: nothing to show.
  if (!replyable) return null;
  const name = enquiry.fields.name || "the visitor";
  return (
    <>
      {"unavailable" in replyable ? (
        <section className="inbox-reply" aria-labelledby="reply-title">
          <h3 id="reply-title">Reply to {name}</h3>
          <p data-testid="reply-unavailable">{replyable.unavailable}</p>
        </section>
      ) : (
        <ReplyForm enquiry={enquiry} name={name} to={replyable.to} subject={replyable.subject} reload={reload} />
      )}
      {replies.length > 0 && <Replies replies={replies} />}
    </>
  );
}

function ReplyForm({ enquiry, name, to, subject, reload }: Props & { name: string; to: string; subject: string }) {
  const [text, setText] = useState("");
  const [key, setKey] = useState(() => crypto.randomUUID());
  const [markAnswered, setMarkAnswered] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [sent, setSent] = useState("");
  const box = useRef<HTMLTextAreaElement>(null);
  // Whether the person has been in the box: then a saved answer goes where their cursor was.
  const entered = useRef(false);
  const cursor = useRef<number | undefined>();
  useLayoutEffect(() => {
    if (cursor.current === undefined || !box.current) return;
    box.current.focus();
    box.current.setSelectionRange(cursor.current, cursor.current);
    cursor.current = undefined;
  }, [text]);
  const inFlight = useRef(false);

  const insert = (answer: string) => {
    const el = box.current;
    const at = entered.current && el ? { start: el.selectionStart, end: el.selectionEnd } : undefined;
    const result = insertInto(text, answer, at);
    cursor.current = result.cursor;
    entered.current = true;
    setText(result.text);
    setSent("");
  };

  const send = async () => {
    if (inFlight.current || !text.trim()) return;
    inFlight.current = true;
    setBusy(true);
    setError("");
    setSent("");
    try {
      const answer = await post<{ reply: Reply; repeated?: boolean }>(
        `enquiries/${encodeURIComponent(enquiry.id)}/replies`,
        { text, key, markAnswered },
      );
      // An earlier Send of this draft was stored though its answer was lost, and the text was changed
      // since: the service sent the first words. The changes are kept, to go as a reply of their own.
      if (answer.repeated && answer.reply.text !== text) {
        setKey(crypto.randomUUID());
        setError(REPEATED_WITH_CHANGES);
        await reload();
        return;
      }
      setText("");
      setKey(crypto.randomUUID());
      entered.current = false;
      setSent(`Your reply to ${name} is on its way.`);
      await reload();
    } catch (e) {
      setError(`Not sent: ${e instanceof ApiError || e instanceof Error ? e.message : String(e)}`);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <section className="inbox-reply" aria-labelledby="reply-title">
      <h3 id="reply-title">Reply to {name}</h3>
      <dl className="inbox-reply-head">
        <div>
          <dt>To</dt>
          <dd data-testid="reply-to">{to}</dd>
        </div>
        <div>
          <dt>Subject</dt>
          <dd data-testid="reply-subject">{subject}</dd>
        </div>
      </dl>
      <form
        className="inbox-reply-form"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <InsertAnswer name={enquiry.fields.name ?? ""} insert={insert} />
        <label htmlFor="reply-text">Your reply</label>
        <textarea
          id="reply-text"
          ref={box}
          value={text}
          rows={10}
          maxLength={20000}
          aria-describedby={error ? "reply-error" : undefined}
          onFocus={() => (entered.current = true)}
          onChange={(e) => {
            setText(e.target.value);
            setSent("");
          }}
        />
        <div className="inbox-reply-check">
          <input
            id="reply-answered"
            type="checkbox"
            checked={markAnswered}
            onChange={(e) => setMarkAnswered(e.target.checked)}
          />
          <label htmlFor="reply-answered">Mark as answered</label>
        </div>
        <div className="inbox-action-row">
          <button type="submit" className="inbox-button" disabled={busy || !text.trim()}>
            {busy ? "Sending…" : "Send"}
          </button>
          <p id="reply-error" role="alert" className="inbox-reply-error">
            {error}
          </p>
          {sent && <p className="inbox-muted">{sent}</p>}
        </div>
      </form>
    </section>
  );
}

/** The team's saved answers, each filled with the visitor's name and this person's signature when inserted. */
function InsertAnswer({ name, insert }: { name: string; insert: (text: string) => void }) {
  const [answers, setAnswers] = useState<SavedAnswer[] | undefined>();
  const [signature, setSignature] = useState("");
  const [chosen, setChosen] = useState("");
  const [problem, setProblem] = useState("");
  useEffect(() => {
    let live = true;
    Promise.all([get<{ answers: SavedAnswer[] }>("saved-answers"), get<{ person: Me }>("me")]).then(
      ([list, me]) => {
        if (!live) return;
        setAnswers(list.answers);
        setSignature(me.person.signature ?? "");
      },
      (e: Error) => live && setProblem(`The saved answers could not be loaded: ${e.message}`),
    );
    return () => {
      live = false;
    };
  }, []);
  const manage = <a href={hrefOf({ view: "answers", filters: {} })}>Saved answers and signature</a>;
  if (problem) return <p className="inbox-muted">{problem}</p>;
  if (!answers) return null;
  if (answers.length === 0) return <p className="inbox-muted">No saved answers yet: add some under {manage}.</p>;
  const answer = answers.find((a) => String(a.id) === chosen);
  return (
    <div className="inbox-reply-insert">
      <label htmlFor="reply-answer">Insert a saved answer</label>
      <div className="inbox-action-row">
        <select id="reply-answer" value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="">Choose one…</option>
          {answers.map((a) => (
            <option key={a.id} value={String(a.id)}>
              {a.title}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="inbox-button-quiet"
          disabled={!answer}
          onClick={() => answer && insert(fillAnswer(answer.text, { name, signature }))}
        >
          Insert
        </button>
      </div>
    </div>
  );
}

function Replies({ replies }: { replies: Reply[] }) {
  return (
    <section aria-labelledby="replies-title">
      <h3 id="replies-title">Replies</h3>
      <ol className="inbox-replies" data-testid="replies">
        {replies.map((r) => (
          <li key={r.id}>
            <p className="inbox-muted">
              {r.by ?? "someone"}, {when(r.at)}, to {r.to}: {r.subject}
            </p>
            <p className="inbox-note-text">{r.text}</p>
            <p className="inbox-reply-state" data-state={r.delivery.state}>
              {deliveryText(r.delivery)}
            </p>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function deliveryText(d: Reply["delivery"]): string {
  if (d.state === "done") return "Sent";
  if (d.state === "failed")
    return `Not sent: ${d.lastError ?? "the mail server refused it"}. It is not tried again by itself: Re-send it under Work on it.`;
  if (!d.lastError) return "Sending…";
  return `Not sent yet: ${d.lastError}, trying again${d.nextAt ? ` at ${when(d.nextAt)}` : " soon"}`;
}
