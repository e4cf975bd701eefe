/**
 * The inbox's secrets: invitation tokens and session ids are 256 random bits, given to the person
 * once (a link, a cookie) and stored only as their SHA-256, so that a copy of the database, a
 * backup or a log of its queries signs no one in. Random secrets of that size need no slow hash.
 */
import crypto from "node:crypto";

export const INVITATION_TTL_MS = 24 * 3600_000;
export const SESSION_LIMITS = { idleMs: 12 * 3600_000, maxMs: 7 * 24 * 3600_000 };

export function newSecret(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

/**
 * The link an invited person opens. The token is in the fragment: a browser never sends it to a
 * server, so it is in no access log, no proxy's log and no Referer; the page posts it itself.
 */
export function invitationLink(siteOrigin: string, token: string): string {
  return `${siteOrigin}/inbox/welcome#${token}`;
}
