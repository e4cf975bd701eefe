/** The inbox: signed in, the list or an enquiry (by the URL); signed out, the passkey sign-in. */
import { useCallback, useEffect, useState } from "react";
import { ApiError, get, post, whenSessionEnds, type Person } from "./api";
import { EnquiryView } from "./enquiry-view";
import { ListView } from "./list-view";
import { SavedAnswersPage } from "./saved-answers";
import { SignIn } from "./sign-in";
import { Notice, StatusMessages, useSay } from "./status-message";
import { useChanges } from "./use-changes";
import { backToList, hrefOf, useRoute } from "./use-route";

/** ended: the session ended while the inbox was open (an answer of 401). */
type Session = { state: "loading" } | { state: "signed-out"; ended?: boolean } | { state: "in"; me: Person };

/** notice: said once the inbox shows (the welcome page's, once the passkey is made). */
export function App({ notice }: { notice?: string }) {
  const [session, setSession] = useState<Session>({ state: "loading" });
  const check = useCallback(() => {
    get<{ person: Person }>("me")
      .then(({ person }) => setSession({ state: "in", me: person }))
      .catch(() => setSession({ state: "signed-out" }));
  }, []);
  useEffect(check, [check]);
  const signedOut = useCallback(() => setSession({ state: "signed-out" }), []);
  // The first answer that says the session is gone shows the sign-in at once, whatever asked: not a
  // page that looks signed in until the next poll.
  useEffect(
    () => whenSessionEnds(() => setSession((now) => (now.state === "in" ? { state: "signed-out", ended: true } : now))),
    [],
  );
  return (
    <StatusMessages>
      {notice && <Notice text={notice} />}
      {session.state === "loading" && <p className="inbox-page">Loading…</p>}
      {session.state === "signed-out" && <SignIn onSignedIn={check} ended={session.ended} />}
      {session.state === "in" && <Inbox me={session.me} onSignedOut={signedOut} />}
    </StatusMessages>
  );
}

function Inbox({ me, onSignedOut }: { me: Person; onSignedOut: () => void }) {
  const [route, go] = useRoute();
  const say = useSay();
  const [people, setPeople] = useState<Person[]>([]);
  const changes = useChanges(onSignedOut);
  useEffect(() => {
    get<{ people: Person[] }>("people")
      .then((answer) => setPeople(answer.people))
      .catch(() => undefined);
  }, []);
  const signOut = async () => {
    try {
      await post("sign-out");
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) return say((error as Error).message, "error");
    }
    say("Signed out.");
    onSignedOut();
  };
  return (
    <div className="inbox-page">
      <header className="inbox-header">
        <h1>
          <a href="/inbox/" onClick={(e) => (e.preventDefault(), go({ filters: {} }))}>
            Enquiries
          </a>
        </h1>
        <a
          className="inbox-button-quiet"
          href={hrefOf({ view: "answers", filters: {} })}
          onClick={(e) => (e.preventDefault(), go({ view: "answers", filters: {} }))}
        >
          Saved answers and signature
        </a>
        <span className="inbox-me">Signed in as {me.name}</span>
        <button type="button" className="inbox-button-quiet" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main">
        {route.view === "answers" ? (
          <SavedAnswersPage back={() => go({ filters: {} })} />
        ) : route.id ? (
          <EnquiryView
            key={route.id}
            id={route.id}
            me={me}
            people={people}
            back={() => backToList(route, go)}
            changes={changes}
          />
        ) : (
          <ListView filters={route.filters} people={people} go={go} changes={changes} />
        )}
      </main>
    </div>
  );
}
