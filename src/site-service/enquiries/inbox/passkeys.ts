/**
 * The passkey ceremonies, with @simplewebauthn/server. The relying party is the site's host (from
 * SITE_URL), the expected origin the site's origin; user verification is required (the passkey is
 * the only factor). Each ceremony's challenge is kept in the store, used once, for 5 minutes, so
 * that the options and the answer may reach different instances.
 *   registration: an invited person, with their link's token, creates a passkey; the invitation is
 *                 used up in the same transaction that stores it
 *   authentication: a discoverable passkey (no e-mail asked) signs its person in; its signature
 *                 counter must move on (InboxStore.usePasskey), or the sign-in is refused as a
 *                 possible clone, logged and shown by `enquiries people`
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { EnquiryStore } from "../store/store";
import type { JsonLog } from "../../service/json-log";
import type { SignInOutcome } from "./routes";
import { hashSecret } from "./secrets";

const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = "Enquiry inbox";

export interface Passkeys {
  registrationOptions(body: Record<string, unknown>): Promise<SignInOutcome>;
  register(body: Record<string, unknown>): Promise<SignInOutcome>;
  authenticationOptions(): Promise<SignInOutcome>;
  authenticate(body: Record<string, unknown>): Promise<SignInOutcome>;
}

const failed = (status: number, reason: string, message: string): SignInOutcome => ({
  ok: false,
  status,
  reason,
  message,
});
const INVITATION_INVALID = failed(
  410,
  "invitation_invalid",
  "This link does not work (any more): it works once, for 24 hours. Ask for a new one.",
);
const NOT_RECOGNISED = failed(401, "passkey_not_recognised", "That passkey was not recognised.");

export function createPasskeys(store: EnquiryStore, siteOrigin: string, now: () => number, log: JsonLog): Passkeys {
  const rpID = new URL(siteOrigin).hostname;
  const iso = (ms = 0) => new Date(now() + ms).toISOString();
  const tokenOf = (body: Record<string, unknown>) =>
    typeof body.token === "string" && body.token.length > 0 && body.token.length < 200 ? body.token : undefined;

  return {
    async registrationOptions(body) {
      const token = tokenOf(body);
      const person = token && (await store.inbox.invitation(hashSecret(token), iso()));
      if (!token || !person) return INVITATION_INVALID;
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID,
        userName: person.email,
        userDisplayName: person.name,
        userID: new TextEncoder().encode(`person-${person.id}`),
        attestationType: "none",
        authenticatorSelection: { residentKey: "required", userVerification: "required" },
        timeout: CHALLENGE_TTL_MS,
      });
      await store.inbox.saveChallenge(options.challenge, "register", hashSecret(token), iso(), iso(CHALLENGE_TTL_MS));
      return { ok: true, json: { options, person: { name: person.name, email: person.email } } };
    },

    async register(body) {
      const token = tokenOf(body);
      const tokenHash = token && hashSecret(token);
      const person = tokenHash && (await store.inbox.invitation(tokenHash, iso()));
      if (!tokenHash || !person) return INVITATION_INVALID;
      let verification;
      try {
        verification = await verifyRegistrationResponse({
          response: body.response as RegistrationResponseJSON,
          expectedChallenge: (challenge) => store.inbox.takeChallenge(challenge, "register", tokenHash, iso()),
          expectedOrigin: siteOrigin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch {
        return failed(400, "passkey_not_created", "The passkey could not be checked: try again.");
      }
      if (!verification.verified) return failed(400, "passkey_not_created", "The passkey could not be checked.");
      const { credential } = verification.registrationInfo;
      const response = body.response as RegistrationResponseJSON;
      const stored = await store.inbox.redeemInvitation(
        tokenHash,
        {
          credentialId: credential.id,
          personId: person.id,
          publicKey: Buffer.from(credential.publicKey).toString("base64url"),
          counter: credential.counter,
          transports: Array.isArray(response.response?.transports) ? response.response.transports : [],
        },
        iso(),
      );
      if (!stored) return INVITATION_INVALID;
      return { ok: true, json: { signedIn: true }, personId: person.id };
    },

    async authenticationOptions() {
      const options = await generateAuthenticationOptions({
        rpID,
        userVerification: "required",
        timeout: CHALLENGE_TTL_MS,
      });
      await store.inbox.saveChallenge(options.challenge, "sign-in", undefined, iso(), iso(CHALLENGE_TTL_MS));
      return { ok: true, json: { options } };
    },

    async authenticate(body) {
      const response = body.response as AuthenticationResponseJSON | undefined;
      const passkey = typeof response?.id === "string" ? await store.inbox.passkey(response.id) : undefined;
      if (!response || !passkey) return NOT_RECOGNISED;
      let verification;
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge: (challenge) => store.inbox.takeChallenge(challenge, "sign-in", undefined, iso()),
          expectedOrigin: siteOrigin,
          expectedRPID: rpID,
          // The library compares the counter before it checks the signature, so its refusal cannot
          // tell a clone from a forgery: the store compares it once the signature is true (0 here
          // turns the library's comparison off).
          credential: {
            id: passkey.credentialId,
            publicKey: new Uint8Array(Buffer.from(passkey.publicKey, "base64url")),
            counter: 0,
            transports: passkey.transports,
          },
          requireUserVerification: true,
        });
      } catch {
        return NOT_RECOGNISED;
      }
      if (!verification.verified) return NOT_RECOGNISED;
      const { newCounter } = verification.authenticationInfo;
      const use = await store.inbox.usePasskey(passkey.credentialId, newCounter, iso());
      if (use === "counter-backwards") {
        // A true signature with a counter not above the stored one: another copy of the key signs
        // too. The operator needs to know whose, to revoke them: the person's id and address only.
        const person = await store.inbox.person(passkey.personId);
        log("warn", "inbox passkey refused: its signature counter went backwards, a possible cloned passkey", {
          personId: passkey.personId,
          person: person?.email,
          counter: newCounter,
          storedCounter: passkey.counter,
        });
      }
      if (use !== "used") return NOT_RECOGNISED;
      return { ok: true, json: { signedIn: true }, personId: passkey.personId };
    },
  };
}
