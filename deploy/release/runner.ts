/**
 * What starts a release without a person: a push's note (--wanted, started by the path unit when the
 * service writes the note) and the branch having moved (--if-moved, started by a timer, for servers a
 * webhook cannot reach). Both release the branch's head as it is when they fetch, so pushes that came
 * during a build become one next release, of the newest commit; neither builds a head that is live,
 * nor one rolled back from while the rollback holds (history.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { takeReleaseWanted, WANTED_FILE, type ReleaseWanted } from "../../src/site-service";
import { currentPause, decide, readHistory, type Decision } from "./history";
import { currentId, paths, readInfo } from "./layout";
import { acquireLock, LockedError } from "./lock";
import { release } from "./release";
import type { Settings } from "./settings";
import { readStatus, type CommitRef } from "./status";
import { resolveCommit, updateMirror } from "./git";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock, waiting (bounded, `settings.lockWaitMs`) while a release under way holds it; its
 * release, or undefined if it is still held at the bound.
 */
async function lockWhenFree(settings: Settings): Promise<(() => void) | undefined> {
  const p = paths(settings.root);
  fs.mkdirSync(p.shared, { recursive: true });
  const deadline = Date.now() + settings.lockWaitMs;
  for (;;) {
    try {
      return acquireLock(p.lock);
    } catch (error) {
      if (!(error instanceof LockedError)) throw error;
    }
    if (Date.now() >= deadline) return undefined;
    await sleep(Math.min(2000, deadline - Date.now()));
  }
}

/**
 * The note, or null. A note that is no note (a link, a FIFO, a huge file, a folder: the service's user
 * can write the folder) is refused with a line that says what it was, and counts as none; so does one
 * that cannot be taken at all, which is said and never thrown (it would end the run with exit 1 and
 * leave the path unit starting it again).
 */
function takeNote(folder: string): ReleaseWanted | null {
  const refuse = (message: string) => console.error(`release: ${message}`);
  try {
    return takeReleaseWanted(folder, refuse);
  } catch (error) {
    refuse(`the release request ${WANTED_FILE} is refused: it cannot be taken (${(error as Error).message})`);
    return null;
  }
}

/** Fetches and decides (history.ts, decide) whether to release the branch's head; under the lock. */
export async function whatToRelease(
  settings: Settings,
  skipFailed: boolean,
): Promise<{ head: CommitRef; decision: Decision }> {
  const p = paths(settings.root);
  await updateMirror(settings.repo, p.mirror);
  const head = await resolveCommit(p.mirror, settings.branch);
  const live = currentId(settings.root);
  const liveCommit = live ? readInfo(path.join(p.releases, live))?.commit : undefined;
  const failed = skipFailed ? readStatus(p.status)?.lastFailure?.commit : undefined;
  const decision = decide(head, liveCommit, currentPause(readHistory(settings.root)), failed);
  return { head, decision };
}

/**
 * Releases while a note says a release is wanted: the note is taken as the release starts, so a push
 * during the build leaves a new one, released next. Returns how many releases failed.
 *
 * The lock first, then the note, the fetch and the release, all under it: a release under way fetches
 * into the same mirror and writes from it, and what was decided on (the live release, a rollback's
 * pause) cannot change before the release starts. While another release holds it, the note stays
 * where it is, for the path unit's next start.
 */
export async function releaseWhenWanted(settings: Settings): Promise<{ released: number; failed: number }> {
  const folder = settings.requestsDir;
  if (!folder) throw new Error("RELEASE_REQUESTS_DIR is not set (the folder the service writes release requests to)");
  let released = 0;
  let failed = 0;
  let skipped = 0;
  for (;;) {
    const unlock = await lockWhenFree(settings);
    if (!unlock) {
      console.log("release: another release is still running; the request stays for the next start");
      return { released, failed };
    }
    try {
      const note = takeNote(folder);
      if (!note) {
        if (released + failed + skipped === 0) console.log("release: no release is wanted");
        return { released, failed };
      }
      console.log(
        `release: wanted by a push to ${note.branch} (${note.commit.slice(0, 12)}, ${note.host}, ${note.at})`,
      );
      try {
        // A replayed delivery, or a note for what is live or rolled back from: taken, nothing built.
        const { head, decision } = await whatToRelease(settings, false);
        if (!decision.release) {
          console.log(`release: ${decision.message}`);
          skipped += 1;
          continue;
        }
        const result = await release(settings, head.commit, { locked: true });
        console.log(`release: ${result.info.id} (${result.info.title}) is live`);
        released += 1;
      } catch (error) {
        console.error(`release: ${error instanceof Error ? error.message : String(error)}`);
        failed += 1;
      }
    } finally {
      unlock();
    }
  }
}

/**
 * Releases the branch's head when it is neither live nor the commit whose release last failed (a
 * commit with a content error is not built again every few minutes) nor one rolled back from.
 * "up to date" or "paused" (said here, with why) otherwise.
 */
export async function releaseIfMoved(settings: Settings): Promise<"released" | "up to date" | "busy" | "paused"> {
  const p = paths(settings.root);
  fs.mkdirSync(p.shared, { recursive: true });
  // The lock before the fetch: a release under way fetches into the same mirror and clones from it.
  let unlock: () => void;
  try {
    unlock = acquireLock(p.lock);
  } catch (error) {
    if (error instanceof LockedError) return "busy";
    throw error;
  }
  try {
    const { head, decision } = await whatToRelease(settings, true);
    if (!decision.release) {
      if (decision.outcome === "paused") console.log(`release: ${decision.message}`);
      return decision.outcome;
    }
    console.log(`release: ${settings.branch} moved to ${head.commit.slice(0, 12)} (${head.title})`);
    await release(settings, head.commit, { locked: true });
    return "released";
  } finally {
    unlock();
  }
}
