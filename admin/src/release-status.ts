/**
 * Where an editor's change is, in the studio on the published site: the release that is live, one
 * under way, or why the last one did not go live: the content check's own words, or the step in plain
 * words and the id of the release's log, for whoever runs the server (anyone can read the status, so
 * it holds nothing of a command's output). The release (deploy/release) writes the status; nginx
 * serves it at /admin/release-status.json. Elsewhere (npm run cms, a static host) there is none, and
 * the studio shows nothing.
 */

/** A commit, as the release records it (deploy/release/status.ts writes this file). */
export interface CommitRef {
  commit: string;
  /** The commit's title: for a studio save, "Update Services “study-design”" and the like. */
  title: string;
  /** The commit's own time (ISO). */
  time: string;
}

export interface ReleaseStatus {
  /** `since`: when it went live. */
  live?: CommitRef & { since?: string };
  underway?: CommitRef & { startedAt: string; step: string };
  /** `log`: the id of the release's log on the server (shared/logs/<log>.log), for whoever runs it. */
  lastFailure?: CommitRef & { at: string; step: string; message: string; log?: string };
  /** After a rollback: pushes are not published by themselves until a new change (or a person) ends it. */
  paused?: { since: string; rolledBackFrom: { commit: string; title: string }; resume?: string };
}

export interface StatusLine {
  tone: "live" | "running" | "failed" | "paused";
  text: string;
  /** The content check's own message, shown as written (file:line and the advice), or the step in plain words. */
  detail?: string;
}

export const STATUS_PATH = "/admin/release-status.json";

const short = (commit: string) => commit.slice(0, 7);

/** "2 minutes ago", "just now": relative, so that no clock or time zone needs explaining. */
export function ago(at: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

/** What the studio says, newest first; a failure older than the live release is history, not news. */
export function describeStatus(status: ReleaseStatus, now: number): StatusLine[] {
  const lines: StatusLine[] = [];
  const { underway, lastFailure: failed, live, paused } = status;
  const liveSince = live ? (live.since ?? live.time) : undefined;
  if (underway)
    lines.push({
      tone: "running",
      text: `Going live: “${underway.title}” (${short(underway.commit)}), started ${ago(underway.startedAt, now)}. It is usually live within a minute or two.`,
    });
  if (failed && (!liveSince || Date.parse(failed.at) >= Date.parse(liveSince))) {
    // Only the content check's mistakes are the editors' to put right; the other steps are the server's.
    const next =
      failed.step === "content check"
        ? "Put this right and publish again:"
        : failed.log
          ? `Whoever runs the server can read why in the release's log ${failed.log}:`
          : "Tell whoever runs the server:";
    const step = failed.step.startsWith("rollback") ? "a rollback" : (STEPS[failed.step] ?? failed.step);
    lines.push({
      tone: "failed",
      text: `Not live: “${failed.title}” (${short(failed.commit)}) stopped at ${step} ${ago(failed.at, now)}. The site still shows the version before it. ${next}`,
      detail: failed.message,
    });
  }
  // The editors' way out, not the server's `resume` (which names npm run release).
  if (paused)
    lines.push({
      tone: "paused",
      text: `The site was rolled back ${ago(paused.since, now)} from “${paused.rolledBackFrom.title}” (${short(paused.rolledBackFrom.commit)}): it shows the version before it until a new change is published. Your next published change goes live as usual.`,
    });
  if (live && liveSince)
    lines.push({
      tone: "live",
      text: `Live on the site: “${live.title}” (${short(live.commit)}), ${ago(liveSince, now)}.`,
    });
  return lines;
}

/** The release's step names, in editors' words. */
const STEPS: Record<string, string> = {
  fetch: "fetching the change",
  checkout: "fetching the change",
  dependencies: "installing the site's packages",
  "content check": "the content check",
  caches: "the build",
  build: "the build",
  "site check": "the check of the built pages",
  nginx: "the web server's check",
  "nginx -t": "the web server's check",
  switch: "going live",
  "nginx reload": "going live",
  "service restart": "going live",
  "live check": "the check of the live site",
  "server setup": "a setup step the server is waiting for",
};
