/**
 * The page the sign-in window ends on: it hands the result to the studio that opened it, with
 * Decap's protocol (decap-cms-lib-auth, netlify-auth.js): "authorizing:github" to the opener, which
 * answers with the same text once it has seen the message come from its `base_url`; then
 * "authorization:github:success:{"token":…,"provider":"github"}" (or ":error:{"message":…}"), after
 * which the studio closes the window.
 *
 * Every message goes to the site's own origin only, never "*": a window that is not the studio (a
 * page elsewhere that opened the sign-in) gets nothing. The script is the same on every page, so one
 * hash allows it (CALLBACK_CSP); the result travels in a JSON data block, which is not run.
 */
import { createHash } from "node:crypto";

const SCRIPT = `(function () {
  var data = JSON.parse(document.getElementById("sign-in-result").textContent);
  var say = function (text) { document.getElementById("sign-in-status").textContent = text; };
  var studio = window.opener;
  if (!studio) return say("Open the editing studio and sign in from there.");
  window.addEventListener("message", function (event) {
    if (event.source !== studio || event.origin !== data.origin || event.data !== "authorizing:github") return;
    studio.postMessage(data.message, data.origin);
    say(data.ok ? "Signed in. This window closes by itself." : "Sign-in failed: " + data.error);
  });
  studio.postMessage("authorizing:github", data.origin);
})();`;

/** The callback page's Content-Security-Policy: its one script, nothing else. */
export const CALLBACK_CSP = [
  "default-src 'none'",
  `script-src 'sha256-${createHash("sha256").update(SCRIPT).digest("base64")}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export type SignInResult = { ok: true; token: string } | { ok: false; error: string };

/** JSON safe inside a <script> element: no "</script>" or "<!--" can close or change it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
}

export function callbackPage(siteOrigin: string, result: SignInResult): string {
  const message = result.ok
    ? `authorization:github:success:${JSON.stringify({ token: result.token, provider: "github" })}`
    : `authorization:github:error:${JSON.stringify({ message: result.error })}`;
  const data = { origin: siteOrigin, message, ok: result.ok, error: result.ok ? undefined : result.error };
  return [
    "<!DOCTYPE html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">',
    "<title>Signing in – Cyrus editing studio</title></head><body>",
    '<p id="sign-in-status">Signing in…</p>',
    `<script type="application/json" id="sign-in-result">${scriptJson(data)}</script>`,
    `<script>${SCRIPT}</script>`,
    "</body></html>",
  ].join("\n");
}
