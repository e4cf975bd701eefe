/**
 * POST /hooks/push/<github|gitlab|gitea>: the git host's push webhook, on the site's own Node
 * service. It answers at once (202) and only writes down that a release is wanted
 * (./release-wanted): the build runs outside the request, as another user. Off (404) until
 * RELEASE_HOOK_SECRET is set.
 */
import fs from "node:fs";
import type http from "node:http";
import { ConfigError, type Env } from "../service/env";
import type { JsonLog } from "../service/json-log";
import { GIT_HOSTS, verifyPush, type GitHost } from "./verify-push";
import { markReleaseWanted } from "./release-wanted";

export const HOOK_PREFIX = "/hooks/push/";
/** A push's payload lists commits and file names, never their contents: far below this. */
export const HOOK_BODY_LIMIT = 1024 * 1024;

export interface PushHookSettings {
  secret: string;
  branch: string;
  /** Where the note goes: a folder the release's user reads and the service's user may write. */
  folder: string;
}

type Log = (...args: Parameters<JsonLog>) => void;
type Reply = (status: number, body: object, headers?: Record<string, string>) => void;

/** RELEASE_HOOK_SECRET, RELEASE_BRANCH (main), RELEASE_REQUESTS_DIR; null when no secret is set. */
export function loadPushHookSettings(env: Env): PushHookSettings | null {
  const value = (name: string) => env[name]?.trim() || undefined;
  const secret = value("RELEASE_HOOK_SECRET");
  if (!secret) return null;
  if (secret.length < 16)
    throw new ConfigError("RELEASE_HOOK_SECRET must be at least 16 characters (use a random one)");
  const folder = value("RELEASE_REQUESTS_DIR");
  if (!folder)
    throw new ConfigError(
      "RELEASE_HOOK_SECRET is set, so RELEASE_REQUESTS_DIR must name the folder for release requests",
    );
  try {
    fs.accessSync(folder, fs.constants.W_OK);
  } catch {
    throw new ConfigError(`RELEASE_REQUESTS_DIR (${folder}) must be a folder this service can write`);
  }
  return { secret, branch: value("RELEASE_BRANCH") ?? "main", folder };
}

export function handlePushHook(
  req: http.IncomingMessage,
  path: string,
  settings: PushHookSettings,
  reply: Reply,
  log: Log,
): void {
  const host = path.slice(HOOK_PREFIX.length) as GitHost;
  if (!GIT_HOSTS.includes(host)) {
    reply(404, { error: "not_found", message: `No push hook for "${host}": use ${GIT_HOSTS.join(", ")}.` });
    return;
  }
  if (req.method !== "POST") {
    reply(405, { error: "method_not_allowed", message: "Use POST." }, { allow: "POST" });
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let refused = false;
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > HOOK_BODY_LIMIT && !refused) {
      refused = true;
      reply(
        413,
        { error: "too_large", message: `A push hook's body is at most ${HOOK_BODY_LIMIT} bytes.` },
        { connection: "close" },
      );
      req.resume();
    } else if (!refused) chunks.push(chunk);
  });
  req.on("end", () => {
    if (refused) return;
    const verdict = verifyPush(host, req.headers, Buffer.concat(chunks), settings.secret);
    if (verdict.kind === "refused") {
      // The reason names the header, never its value: a guessed secret is not echoed or logged.
      log("warn", "push hook refused", { host, reason: verdict.reason });
      reply(401, { error: "unauthorized", message: `Refused: ${verdict.reason}.` });
    } else if (verdict.kind === "unreadable") {
      reply(400, { error: "bad_request", message: verdict.reason });
    } else if (verdict.kind === "other") {
      reply(200, { status: "ignored", reason: `not a branch push (${verdict.what})` });
    } else if (verdict.branch !== settings.branch) {
      reply(200, { status: "ignored", reason: `the site is released from ${settings.branch}, not ${verdict.branch}` });
    } else {
      try {
        markReleaseWanted(settings.folder, { ...verdict, host, at: new Date().toISOString() });
      } catch (error) {
        log("error", "cannot write the release request", { error: (error as Error).message });
        reply(503, {
          error: "unavailable",
          message:
            "The release request could not be written: redeliver the push from the git host's webhook settings (the release timer also catches up).",
        });
        return;
      }
      log("info", "release wanted", { host, branch: verdict.branch, commit: verdict.commit });
      reply(202, { status: "release wanted", branch: verdict.branch, commit: verdict.commit });
    }
  });
}
