/**
 * What went live, in order: shared/release-history.json. A rollback goes back along it (to the release
 * that was live before the current one, never to one it rolled back from), pruning keeps that release,
 * and a rollback holds: while the branch's head is a commit that was rolled back from, the push note
 * and the timer release nothing (docs/release-runner.md, "Automatic releases").
 */
import fs from "node:fs";
import path from "node:path";
import { currentId, listReleases, paths, readInfo, writeJsonAtomically, type ReleaseInfo } from "./layout";
import type { Status } from "./status";

export interface WentLive {
  id: string;
  commit: string;
  title: string;
  /** When it went live (ISO). */
  at: string;
  /** "found": live when this history was next written, switched by an older runner (or none yet). */
  by: "release" | "rollback" | "found";
}

/** Enough to replay years of releases; the oldest entries go first. */
const MAX_ENTRIES = 200;

export const historyFile = (root: string) => path.join(paths(root).shared, "release-history.json");

export function readHistory(root: string): WentLive[] {
  try {
    const parsed = JSON.parse(fs.readFileSync(historyFile(root), "utf8")) as { wentLive?: WentLive[] };
    return Array.isArray(parsed.wentLive) ? parsed.wentLive : [];
  } catch {
    return [];
  }
}

/**
 * The releases a rollback can go back through, the live one last: a release goes on top, a rollback
 * takes off what was above the release it went back to; those were rolled back from.
 */
export function replay(history: WentLive[], live?: string): { stack: string[]; rolledBackFrom: Set<string> } {
  const stack: string[] = [];
  const rolledBackFrom = new Set<string>();
  for (const entry of history) {
    if (entry.by === "rollback") {
      const at = stack.lastIndexOf(entry.id);
      // Back to a release the history does not hold (it was not kept yet): it takes the top's place.
      for (const id of stack.splice(at >= 0 ? at + 1 : -1)) rolledBackFrom.add(id);
      if (at >= 0) continue;
    }
    stack.push(entry.id);
  }
  // Switched without a record (an older runner, or by hand): it went live after the last one recorded.
  if (live && stack.at(-1) !== live) stack.push(live);
  return { stack, rolledBackFrom };
}

/** Appends what just went live (under the lock), after the release that was live before it if unrecorded. */
export function recordLive(root: string, info: ReleaseInfo, by: "release" | "rollback", previousId?: string): void {
  const history = readHistory(root);
  const now = new Date().toISOString();
  const entry = (i: ReleaseInfo, how: WentLive["by"]): WentLive => ({
    id: i.id,
    commit: i.commit,
    title: i.title,
    at: now,
    by: how,
  });
  const previous = previousId ? readInfo(path.join(paths(root).releases, previousId)) : undefined;
  if (previous && replay(history).stack.at(-1) !== previous.id) history.push(entry(previous, "found"));
  history.push(entry(info, by));
  // Never cut inside a run of rollbacks: the pause needs the release they started from.
  let start = Math.max(0, history.length - MAX_ENTRIES);
  while (start > 0 && history[start]?.by === "rollback") start -= 1;
  writeJsonAtomically(historyFile(root), { wentLive: history.slice(start) });
}

/**
 * Where --rollback goes: the newest release below the live one on the stack that is still kept; when
 * the history holds none (a server upgraded from a runner that kept none), the newest release older
 * than the live one by id, as that runner chose, that was never rolled back from.
 */
export function rollbackTarget(root: string): ReleaseInfo | undefined {
  const ready = new Map(listReleases(root).map((info) => [info.id, info]));
  const live = currentId(root);
  if (!live || !ready.has(live)) return undefined;
  const { stack, rolledBackFrom } = replay(readHistory(root), live);
  const ids = [...ready.keys()];
  const older = ids.slice(0, ids.indexOf(live)).filter((id) => !rolledBackFrom.has(id));
  const id = [...stack.slice(0, -1).reverse(), ...older.reverse()].find((i) => i !== live && ready.has(i));
  return id ? ready.get(id) : undefined;
}

/** The releases to remove: all but the newest `keep`, the live one and the one --rollback goes to. */
export function toPrune(root: string, keep: number): string[] {
  const ready = listReleases(root).map((info) => info.id);
  const kept = new Set([currentId(root), rollbackTarget(root)?.id]);
  return ready.slice(0, Math.max(0, ready.length - keep)).filter((id) => !kept.has(id));
}

export interface Pause {
  /** When the first rollback of this pause went live. */
  since: string;
  /** What was live when it began. */
  rolledBackFrom: WentLive;
  /** Every commit rolled back from since: none of them is released without a person. */
  held: string[];
}

/** Paused while the newest entries are rollbacks: the next release that goes live ends it. */
export function currentPause(history: WentLive[]): Pause | undefined {
  let first = history.length;
  while (first > 0 && history[first - 1]?.by === "rollback") first -= 1;
  const from = history[first - 1];
  const start = history[first];
  if (!start || !from) return undefined;
  const held = [from, ...history.slice(first, -1)].map((entry) => entry.commit);
  return { since: start.at, rolledBackFrom: from, held: [...new Set(held)] };
}

export const RESUME =
  "A new commit on the branch (an editor's next published change) is released as usual and ends the pause; " +
  "so does a release run by a person (npm run release), which builds the branch's head whatever it is.";

/** The status file's `paused` (undefined when not paused). */
export function pauseStatus(root: string): Status["paused"] {
  const pause = currentPause(readHistory(root));
  if (!pause) return undefined;
  const { commit, title } = pause.rolledBackFrom;
  return { since: pause.since, rolledBackFrom: { commit, title }, resume: RESUME };
}

export type Decision = { release: true } | { release: false; outcome: "up to date" | "paused"; message: string };

/**
 * Whether a release without a person (the push note, the timer) builds the branch's head: never the
 * live commit, never a commit rolled back from while the pause holds, and (`lastFailure`, the timer)
 * not the commit whose release last failed.
 */
export function decide(
  head: { commit: string; title: string },
  live?: string,
  pause?: Pause,
  lastFailure?: string,
): Decision {
  const short = `${head.commit.slice(0, 12)} (${head.title})`;
  const no = (outcome: "up to date" | "paused", message: string): Decision => ({ release: false, outcome, message });
  if (head.commit === live) return no("up to date", `up to date: ${short} is live`);
  if (pause?.held.includes(head.commit)) {
    return no(
      "paused",
      `automatic releases are paused since ${pause.since}: the branch's head ${short} was rolled back, ` +
        "so it is not released again. A new commit on the branch ends the pause, or npm run release by a person.",
    );
  }
  if (head.commit === lastFailure)
    return no("up to date", `up to date: the release of ${short} failed; not tried again`);
  return { release: true };
}
