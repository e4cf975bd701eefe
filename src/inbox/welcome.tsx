/**
 * The invitation's page: its token is in the URL's fragment, which the browser never sends to a
 * server; this page sends it only in the body of the two passkey calls, then drops it from the
 * address bar and history (the entry replaced by /inbox/), and shows the inbox in its place with
 * the welcome as a notice on the list (no reload, which would lose it).
 */
import { startRegistration, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { useState } from "react";
import { post } from "./api";
import { App } from "./app";
import { StatusMessages, useSay } from "./status-message";

export function Welcome() {
  const [notice, setNotice] = useState<string | undefined>();
  if (notice) return <App notice={notice} />;
  return (
    <StatusMessages>
      <WelcomePage token={window.location.hash.slice(1)} welcomed={setNotice} />
    </StatusMessages>
  );
}

function WelcomePage({ token, welcomed }: { token: string; welcomed: (notice: string) => void }) {
  const say = useSay();
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setBusy(true);
    try {
      const { options, person } = await post<{
        options: PublicKeyCredentialCreationOptionsJSON;
        person: { name: string };
      }>("session/welcome-options", { token });
      const response = await startRegistration({ optionsJSON: options });
      await post("session/welcome", { token, response });
      window.history.replaceState(null, "", "/inbox/");
      document.title = "Enquiries inbox";
      welcomed(`Welcome, ${person.name}: your passkey is made.`);
    } catch (error) {
      say(`No passkey made: ${(error as Error).message}`, "error");
      setBusy(false);
    }
  };
  return (
    <main id="main" className="inbox-page inbox-narrow">
      <h1>Welcome to the enquiries inbox</h1>
      {token ? (
        <>
          <p>
            Make a passkey on this device: your fingerprint, face or screen lock will sign you in from now on. No
            password is kept.
          </p>
          <button type="button" className="inbox-button" onClick={create} disabled={busy}>
            Create a passkey
          </button>
        </>
      ) : (
        <p>This link holds no invitation: open the whole link you were sent.</p>
      )}
      <p className="inbox-muted">
        Already have a passkey? <a href="/inbox/">Sign in</a>.
      </p>
    </main>
  );
}
