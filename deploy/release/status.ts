/**
 * shared/release-status.json: what the studio shows editors (issue 27, item 4). The live release, a
 * release under way, and the last failure with the content check's (or the step's) own message.
 * It holds commit ids, titles, times and messages only: no setting, no address, no secret; the
 * paths of the release folder are cut from messages.
 */
import fs from "node:fs";
import { writeJsonAtomically } from "./layout";

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
  lastFailure?: CommitRef & { at: string; step: string; message: string };
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

/** A message fit for editors: release folder paths made relative, colour codes removed, bounded. */
export function cleanMessage(message: string, folders: string[]): string {
  // Terminal colour codes (ESC [ … m) mean nothing in the studio.
  let text = message.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");
  for (const folder of folders) text = text.split(`${folder}/`).join("").split(folder).join(".");
  return text.trim().slice(-8000);
}
