/**
 * A passkey in software, for the inbox's ceremonies without a browser: a P-256 key made here, an
 * attestation of format "none" and assertions signed with node:crypto, as a platform authenticator
 * would give them to navigator.credentials (the JSON @simplewebauthn/browser sends). CBOR is
 * written with the library's own encoder (its helpers).
 */
import crypto from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => crypto.createHash("sha256").update(data).digest();
const counterBytes = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(n);
  return bytes;
};

// Flags of the authenticator data: user present, user verified, attested credential data.
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftwareAuthenticator {
  credentialId: string;
  /** The answer to registration options (navigator.credentials.create). */
  register(options: { challenge: string; rp: { id?: string } }, origin: string): object;
  /** The answer to authentication options (navigator.credentials.get); `verified: false` leaves UV off. */
  assert(options: { challenge: string; rpId?: string }, origin: string, extra?: { verified?: boolean }): object;
  /** A copy of this passkey (its key and id) with a signature counter of its own, from this one's now: a clone. */
  clone(): SoftwareAuthenticator;
}

export function softwareAuthenticator(
  key = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }),
  rawId = crypto.randomBytes(16),
  startCounter = 0,
): SoftwareAuthenticator {
  const { privateKey, publicKey } = key;
  const jwk = publicKey.export({ format: "jwk" });
  const credentialId = b64url(rawId);
  let counter = startCounter;
  const coseKey = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, "base64url"))],
    ]),
  );
  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    credentialId,
    register(options, origin) {
      const credentialLength = Buffer.alloc(2);
      credentialLength.writeUInt16BE(rawId.length);
      const authData = Buffer.concat([
        sha256(options.rp.id ?? ""),
        Buffer.from([UP | UV | AT]),
        counterBytes(counter),
        Buffer.alloc(16), // AAGUID: none
        credentialLength,
        rawId,
        Buffer.from(coseKey),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", new Uint8Array(authData)],
        ]) as never,
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ["internal"],
        },
      };
    },
    assert(options, origin, extra = {}) {
      counter += 1;
      const authData = Buffer.concat([
        sha256(options.rpId ?? ""),
        Buffer.from([UP | (extra.verified === false ? 0 : UV)]),
        counterBytes(counter),
      ]);
      const clientDataJSON = clientData("webauthn.get", options.challenge, origin);
      const signature = crypto.sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
      };
    },
    clone: () => softwareAuthenticator(key, rawId, counter),
  };
}
