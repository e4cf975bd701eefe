/**
 * The "Saved answers and signature" page: the team's saved answers (add, edit, delete; each a title
 * and a text with placeholders) and this person's own signature, which fills {signature} when they
 * insert an answer into a reply (./reply-box).
 */
import { useCallback, useEffect, useRef, useState } from "react";
import "./reply.css";
import { get, post, type Me, type SavedAnswer } from "./api";
import { when } from "./format";
import { useSay } from "./status-message";

export function SavedAnswersPage({ back }: { back: () => void }) {
  return (
    <article className="inbox-enquiry" aria-labelledby="answers-page-title">
      <button type="button" className="inbox-button-quiet" onClick={back}>
        ← Back to the list
      </button>
      <h2 id="answers-page-title">Saved answers and signature</h2>
      <Signature />
      <Answers />
    </article>
  );
}

function Signature() {
  const say = useSay();
  const [signature, setSignature] = useState<string | undefined>();
  useEffect(() => {
    get<{ person: Me }>("me").then(
      ({ person }) => setSignature(person.signature ?? ""),
      (e: Error) => say(`Your signature could not be loaded: ${e.message}`, "error"),
    );
  }, [say]);
  if (signature === undefined) return null;
  return (
    <section aria-labelledby="signature-title">
      <h3 id="signature-title">Your signature</h3>
      <form
        className="inbox-note-form"
        onSubmit={(e) => {
          e.preventDefault();
          post<{ person: Me }>("me/signature", { signature }).then(
            ({ person }) => {
              setSignature(person.signature ?? "");
              say("Signature saved.");
            },
            (error: Error) => say(`Signature not saved: ${error.message}`, "error"),
          );
        }}
      >
        <label htmlFor="signature">Signature ({"{signature}"} in a saved answer)</label>
        <textarea
          id="signature"
          value={signature}
          rows={4}
          maxLength={1000}
          onChange={(e) => setSignature(e.target.value)}
        />
        <button type="submit" className="inbox-button">
          Save signature
        </button>
      </form>
    </section>
  );
}

type Editing = { id?: string; title: string; text: string };

function Answers() {
  const say = useSay();
  const [answers, setAnswers] = useState<SavedAnswer[] | undefined>();
  const [editing, setEditing] = useState<Editing | undefined>();
  const [deleting, setDeleting] = useState<string | undefined>();
  const load = useCallback(
    () =>
      get<{ answers: SavedAnswer[] }>("saved-answers").then(
        (answer) => setAnswers(answer.answers),
        (e: Error) => say(`The saved answers could not be loaded: ${e.message}`, "error"),
      ),
    [say],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const save = async (edit: Editing) => {
    try {
      const path = edit.id === undefined ? "saved-answers" : `saved-answers/${encodeURIComponent(edit.id)}`;
      await post(path, { title: edit.title, text: edit.text });
      say(`Saved answer "${edit.title}" saved.`);
      setEditing(undefined);
      await load();
    } catch (e) {
      say(`Not saved: ${(e as Error).message}`, "error");
    }
  };
  const remove = async (answer: SavedAnswer) => {
    try {
      await post(`saved-answers/${encodeURIComponent(answer.id)}/delete`);
      say(`Saved answer "${answer.title}" deleted.`);
      setDeleting(undefined);
      await load();
    } catch (e) {
      say(`Not deleted: ${(e as Error).message}`, "error");
    }
  };
  return (
    <section aria-labelledby="answers-title">
      <h3 id="answers-title">Saved answers</h3>
      <p className="inbox-muted" id="placeholders-hint">
        Shared by everyone in the inbox. When one is inserted into a reply, {"{name}"} becomes the visitor&apos;s name
        and {"{signature}"} the signature of whoever inserts it; the reply can still be edited before it is sent.
      </p>
      {answers?.length === 0 && <p>No saved answers yet.</p>}
      <ul className="inbox-answers" data-testid="saved-answers">
        {answers?.map((a) =>
          editing?.id === String(a.id) ? (
            <li key={a.id}>
              <AnswerForm edit={editing} save={save} cancel={() => setEditing(undefined)} />
            </li>
          ) : (
            <li key={a.id}>
              <h4 className="inbox-answer-title">{a.title}</h4>
              <p className="inbox-note-text">{a.text}</p>
              <p className="inbox-muted">
                {a.updatedBy ? `${a.updatedBy}, ` : ""}
                {when(a.updatedAt)}
              </p>
              {deleting === String(a.id) ? (
                <div className="inbox-confirm" role="group" aria-label={`Delete "${a.title}"?`}>
                  <p>Delete &quot;{a.title}&quot; for everyone?</p>
                  <div className="inbox-action-row">
                    <button type="button" className="inbox-button-danger" onClick={() => void remove(a)}>
                      Delete it
                    </button>
                    <button type="button" className="inbox-button-quiet" onClick={() => setDeleting(undefined)}>
                      Cancel
                    </button>
                  </div>
                </div>
              ) : (
                <div className="inbox-action-row">
                  <button
                    type="button"
                    className="inbox-button-quiet"
                    aria-label={`Edit "${a.title}"`}
                    onClick={() => setEditing({ id: String(a.id), title: a.title, text: a.text })}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className="inbox-button-quiet"
                    aria-label={`Delete "${a.title}"`}
                    onClick={() => setDeleting(String(a.id))}
                  >
                    Delete
                  </button>
                </div>
              )}
            </li>
          ),
        )}
      </ul>
      {editing?.id === undefined &&
        (editing ? (
          <AnswerForm edit={editing} save={save} cancel={() => setEditing(undefined)} />
        ) : (
          <button type="button" className="inbox-button" onClick={() => setEditing({ title: "", text: "" })}>
            Add a saved answer
          </button>
        ))}
    </section>
  );
}

function AnswerForm({ edit, save, cancel }: { edit: Editing; save: (e: Editing) => void; cancel: () => void }) {
  const [title, setTitle] = useState(edit.title);
  const [text, setText] = useState(edit.text);
  const id = edit.id ?? "new";
  // The button that opened the form is gone: the keyboard's focus goes on to the form's first field.
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <form
      className="inbox-note-form inbox-answer-form"
      aria-label={edit.id === undefined ? "New saved answer" : `Editing "${edit.title}"`}
      onSubmit={(e) => {
        e.preventDefault();
        save({ id: edit.id, title, text });
      }}
    >
      <label htmlFor={`answer-title-${id}`}>Title</label>
      <input
        id={`answer-title-${id}`}
        value={title}
        maxLength={100}
        required
        ref={first}
        onChange={(e) => setTitle(e.target.value)}
      />
      <label htmlFor={`answer-text-${id}`}>Text</label>
      <textarea
        id={`answer-text-${id}`}
        value={text}
        rows={8}
        maxLength={5000}
        required
        aria-describedby="placeholders-hint"
        onChange={(e) => setText(e.target.value)}
      />
      <div className="inbox-action-row">
        <button type="submit" className="inbox-button" disabled={!title.trim() || !text.trim()}>
          Save answer
        </button>
        <button type="button" className="inbox-button-quiet" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
