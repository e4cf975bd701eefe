/**
 * A git host's push webhook, checked before anything is believed: each host proves the sender
 * knows the shared secret its own way (GitHub and Gitea/Forgejo sign the body with HMAC-SHA256,
 * GitLab sends the secret itself), and every comparison is timing-safe so that the answer's
 * timing gives nothing away.
 */
import crypto from "node:crypto";

export const GIT_HOSTS = ["github", "gitlab", "gitea"] as const;
export type GitHost = (typeof GIT_HOSTS)[number];

export type Headers = Record<string, string | string[] | undefined>;

export type PushVerdict =
  | { kind: "refused"; reason: string }
  | { kind: "unreadable"; reason: string }
  /** Signed, but not a push (GitHub's "ping" when the hook is created, a tag, a deleted branch). */
  | { kind: "other"; what: string }
  | { kind: "push"; branch: string; commit: string };

const ZERO_COMMIT = /^0+$/;

export function verifyPush(host: GitHost, headers: Headers, body: Buffer, secret: string): PushVerdict {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const proof = signatureOk(host, header, body, secret);
  if (proof !== true) return { kind: "refused", reason: proof };

  const event = header(EVENT_HEADER[host]) ?? "";
  if (!PUSH_EVENTS[host].includes(event)) return { kind: "other", what: `event "${event || "none"}"` };
  let payload: { ref?: unknown; after?: unknown };
  try {
    payload = JSON.parse(body.toString("utf8")) as typeof payload;
  } catch {
    return { kind: "unreadable", reason: "the body is not JSON (set the webhook's content type to application/json)" };
  }
  const { ref, after } = payload;
  if (typeof ref !== "string" || typeof after !== "string" || !/^[0-9a-f]{7,64}$/i.test(after))
    return { kind: "unreadable", reason: 'the push has no "ref" and "after" commit' };
  if (!ref.startsWith("refs/heads/")) return { kind: "other", what: `push of ${ref}` };
  if (ZERO_COMMIT.test(after)) return { kind: "other", what: `deletion of ${ref}` };
  return { kind: "push", branch: ref.slice("refs/heads/".length), commit: after.toLowerCase() };
}

const EVENT_HEADER: Record<GitHost, string> = {
  github: "x-github-event",
  gitlab: "x-gitlab-event",
  gitea: "x-gitea-event",
};
const PUSH_EVENTS: Record<GitHost, string[]> = {
  github: ["push"],
  gitlab: ["Push Hook"],
  gitea: ["push"],
};

function signatureOk(
  host: GitHost,
  header: (name: string) => string | undefined,
  body: Buffer,
  secret: string,
): true | string {
  const hmac = () => crypto.createHmac("sha256", secret).update(body).digest("hex");
  if (host === "gitlab") {
    const token = header("x-gitlab-token");
    if (token === undefined) return "no X-Gitlab-Token header";
    return sameText(token, secret) ? true : "wrong X-Gitlab-Token";
  }
  if (host === "github") {
    const signature = header("x-hub-signature-256");
    if (signature === undefined) return "no X-Hub-Signature-256 header";
    return sameText(signature, `sha256=${hmac()}`) ? true : "wrong X-Hub-Signature-256";
  }
  // Gitea sends X-Gitea-Signature; Forgejo, its fork, X-Forgejo-Signature: both the bare hex HMAC.
  const signature = header("x-gitea-signature") ?? header("x-forgejo-signature");
  if (signature === undefined) return "no X-Gitea-Signature header";
  return sameText(signature, hmac()) ? true : "wrong X-Gitea-Signature";
}

/** Compares digests of both, so that neither the length nor the first difference shows in the time. */
function sameText(given: string, expected: string): boolean {
  const digest = (text: string) => crypto.createHash("sha256").update(text, "utf8").digest();
  return crypto.timingSafeEqual(digest(given), digest(expected));
}
