/**
 * Signing in with the passkey made from the invitation (no e-mail asked: the passkey is discoverable).
 * ended: the session ended while the inbox was open (signed out elsewhere, revoked, or past its time).
 */
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { useState } from "react";
import { post } from "./api";
import { useSay } from "./status-message";

export function SignIn({ onSignedIn, ended = false }: { onSignedIn: () => void; ended?: boolean }) {
  const say = useSay();
  const [busy, setBusy] = useState(false);
  const signIn = async () => {
    setBusy(true);
    try {
      const { options } = await post<{ options: PublicKeyCredentialRequestOptionsJSON }>("session/sign-in-options");
      const response = await startAuthentication({ optionsJSON: options });
      await post("session/sign-in", { response });
      say("Signed in.");
      onSignedIn();
    } catch (error) {
      say(`Not signed in: ${(error as Error).message}`, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="inbox-page inbox-narrow">
      <h1>Enquiries inbox</h1>
      {ended && <p>Your session has ended: sign in again to go on.</p>}
      <p>Sign in with the passkey you made when you were invited.</p>
      <button type="button" className="inbox-button" onClick={signIn} disabled={busy}>
        Sign in with a passkey
      </button>
      <p className="inbox-muted">No passkey yet? Ask the site&apos;s operator for an invitation.</p>
    </main>
  );
}
