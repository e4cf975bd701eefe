/** The inbox: signed in, the list or an enquiry (by the URL); signed out, the passkey sign-in. */
import { useCallback, useEffect, useState } from "react";
import { ApiError, get, post, type Person } from "./api";
import { EnquiryView } from "./enquiry-view";
import { ListView } from "./list-view";
import { SavedAnswersPage } from "./saved-answers";
import { SignIn } from "./sign-in";
import { StatusMessages, useSay } from "./status-message";
import { useChanges } from "./use-changes";
import { hrefOf, useRoute } from "./use-route";

type Session = { state: "loading" } | { state: "signed-out" } | { state: "in"; me: Person };

export function App() {
  const [session, setSession] = useState<Session>({ state: "loading" });
  const check = useCallback(() => {
    get<{ person: Person }>("me")
      .then(({ person }) => setSession({ state: "in", me: person }))
      .catch(() => setSession({ state: "signed-out" }));
  }, []);
  useEffect(check, [check]);
  const signedOut = useCallback(() => setSession({ state: "signed-out" }), []);
  return (
    <StatusMessages>
      {session.state === "loading" && <p className="inbox-page">Loading…</p>}
      {session.state === "signed-out" && <SignIn onSignedIn={check} />}
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
            back={() => window.history.back()}
            changes={changes}
          />
        ) : (
          <ListView filters={route.filters} people={people} go={go} changes={changes} />
        )}
      </main>
    </div>
  );
}
