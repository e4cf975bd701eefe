/**
 * shared/release-status.json: what the studio shows editors. The live release, a
 * release under way, and the last failure. nginx serves it to anyone who can reach the site, so it
 * holds only what editors need: commit ids, titles and times, the failed step in plain words, the
 * content check's own report (meant for editors), and the id of the attempt's log. Nothing a command
 * printed otherwise (the build's output, git's and nginx's messages, the live check's address):
 * that is in the log (release-log.ts), for whoever runs the server.
 */
import fs from "node:fs";
import { StepError } from "./exec";
import { writeJsonAtomically } from "./layout";
import type { ReleaseLog } from "./release-log";

export interface CommitRef {
  commit: string;
  title: string;
  time: string;
}

export interface Status {
  state: "live" | "releasing" | "failed";
  /** `since`: when it went live. */
  live?: CommitRef & { id: string; since?: string };
  underway?: CommitRef & { startedAt: string; step: string };
  /** `log`: the attempt's log, shared/logs/<log>.log, named by its id only. */
  lastFailure?: CommitRef & { at: string; step: string; message: string; log?: string };
  /** After a rollback, until a release goes live: automatic releases skip what was rolled back from. */
  paused?: { since: string; rolledBackFrom: { commit: string; title: string }; resume: string };
  updatedAt: string;
}

export function readStatus(file: string): Status | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Status;
  } catch {
    return undefined;
  }
}

export function writeStatus(file: string, change: Partial<Status>): Status {
  const status: Status = { state: "live", ...readStatus(file), ...change, updatedAt: new Date().toISOString() };
  for (const key of ["live", "underway", "lastFailure"] as const) if (status[key] === undefined) delete status[key];
  writeJsonAtomically(file, status);
  return status;
}

/** A message for the operator's command line: release folder paths made relative, colour codes removed, bounded. */
export function cleanMessage(message: string, folders: string[]): string {
  // Terminal colour codes (ESC [ … m) mean nothing in the studio.
  let text = message.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
  for (const folder of folders) text = text.split(`${folder}/`).join("").split(folder).join(".");
  return text.trim().slice(-8000);
}

/** Each step in plain words: what the status says when it fails (the content check: when it has no report). */
const FAILED: Record<string, string> = {
  fetch: "The site could not be fetched from the repository.",
  checkout: "The commit could not be checked out of the repository.",
  sandbox:
    "The sandbox the build runs in could not be started on the server (the release's log says why); the live site is unchanged.",
  dependencies: "The site's packages could not be installed.",
  "content check": "The content check did not finish.",
  caches: "The previous build's files could not be carried over to this build.",
  build: "The site did not build.",
  "site check": "The built site did not pass the check of its pages.",
  nginx: "The web server's configuration could not be made for this release.",
  "nginx -t": "The web server found this release's configuration wrong.",
  "server setup":
    "Releases are held until whoever runs the server takes an upgrade step (the release's log says which); the live site is unchanged.",
};

/** Steps after the switch: the release switched back (goLive in release.ts), or there was nothing to go back to. */
const AFTER_SWITCH: Record<string, string> = {
  switch: "The new release could not be put live",
  "nginx reload": "The web server did not take the new release",
  "service restart": "The site's service did not restart with the new release",
  "live check": "The new release did not answer after the switch",
};

const ROLLBACK = "The rollback to the earlier release did not go live; the release that was live is live again.";

/**
 * The content check's report and nothing else: its heading, each problem's place
 * (`data/…:line:col, field "…"`) and the message lines under it, its closing line. A line of any other
 * form (a stack trace, npm's or Node's own words, a warning's report) is left out. Empty when there is
 * no problem in the check's form.
 */
export function contentReport(output: string): string {
  const HEADING = /^The content check found \d+ problems? in data\/:$/;
  const PLACE = /^ {2}data\/[^\n:"]+(?::\d+(?::\d+)?)?(?:, field "[^"\n]*")?$/;
  const CLOSING = /^Nothing can be built until these are corrected/;
  const kept: string[] = [];
  let inReport = false;
  let underPlace = false;
  let places = 0;
  for (const line of output.split("\n")) {
    if (HEADING.test(line)) {
      inReport = true;
      underPlace = false;
      kept.push(line);
    } else if (inReport && PLACE.test(line)) {
      underPlace = true;
      places += 1;
      kept.push("", line);
    } else if (inReport && underPlace && line.startsWith("  ") && line.trim()) {
      kept.push(line);
    } else if (inReport && CLOSING.test(line)) {
      kept.push("", line);
      inReport = false;
      underPlace = false;
    } else {
      underPlace = false;
      // A warning's report (printed before the problems) is not why the release stopped.
      if (/^The content check found \d+ warnings? in data\/:$/.test(line)) inReport = false;
    }
  }
  return places > 0 ? kept.join("\n") : "";
}

/**
 * What the public status says about a failed step. `folders`: the release folder and the root, cut
 * from the content check's report. `liveAfter`: whether a release is live after the failure.
 */
export function publicMessage(step: string, error: unknown, folders: string[], liveAfter: boolean): string {
  if (step.startsWith("rollback")) return ROLLBACK;
  if (step === "content check") {
    const text = error instanceof StepError ? (error.output ?? error.message) : "";
    const report = contentReport(cleanMessage(text, folders));
    if (report) return report.slice(-8000);
  }
  const after = AFTER_SWITCH[step];
  if (after) return `${after}; ${liveAfter ? "the previous one is live again" : "no release is live yet"}.`;
  return FAILED[step] ?? "The release failed.";
}

export interface Failure {
  /** The commit that did not go live (empty before the fetch found it). */
  target: CommitRef;
  /** The step under way; a StepError's own step wins. */
  step: string;
  error: unknown;
  /** Release folder paths to cut from the content check's report and the operator's message. */
  folders: string[];
  liveAfter: boolean;
  /** A rollback's failure: its step is `rollback: <step>`. */
  rollback?: boolean;
}

/**
 * A failed step, told to each as they need it: the whole error to the attempt's log, the step in
 * plain words (or the content check's report) and the log's id to the status (with `change`: the
 * state, the end of `underway`). Returns the error for the operator's command line, as before.
 */
export function recordFailure(
  statusFile: string,
  log: ReleaseLog | undefined,
  failure: Failure,
  change: Partial<Status> = {},
): StepError {
  const { error, folders, target } = failure;
  const own = error instanceof StepError ? error.step : failure.step;
  const step = failure.rollback ? `rollback: ${own}` : own;
  const full = error instanceof Error ? error.message : String(error);
  if (log) {
    // A command's output is in the log already, whole (exec.ts): not its end again.
    log.note(
      `${step} failed: ${error instanceof StepError && error.output !== undefined ? "its output is above" : full}`,
    );
    // An error that is not a command's (a file system's, a bug): where it came from.
    if (!(error instanceof StepError) && error instanceof Error && error.stack) log.write(`${error.stack}\n`);
  }
  writeStatus(statusFile, {
    ...change,
    lastFailure: {
      ...target,
      at: new Date().toISOString(),
      step,
      message: publicMessage(step, error, folders, failure.liveAfter),
      ...(log ? { log: log.id } : {}),
    },
  });
  return new StepError(step, cleanMessage(full, folders));
}
