/**
 * One release at a time: shared/release.lock holds the pid (and its start time, so a reused pid is
 * not taken for the release that died). A lock whose process is gone is taken over, so a release
 * that was killed never blocks the next one.
 */
import fs from "node:fs";

interface Holder {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: when that process started (clock ticks since boot). */
  start?: string;
  since: string;
}

function startTime(pid: number): string | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

function alive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const start = startTime(holder.pid);
  return !(holder.start && start && start !== holder.start);
}

function readHolder(file: string): Holder | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as Holder;
  } catch {
    return undefined;
  }
}

export class LockedError extends Error {}

export const LOCK_MODE = 0o600;

/** Who holds the lock, if a live process does (a lock left by a killed release holds nothing). */
export function lockHolder(file: string): Holder | undefined {
  const holder = readHolder(file);
  return holder && alive(holder) ? holder : undefined;
}

/** Takes the lock or throws LockedError naming the release that holds it. Returns its release. */
export function acquireLock(file: string): () => void {
  const mine: Holder = { pid: process.pid, start: startTime(process.pid), since: new Date().toISOString() };
  const temp = `${file}.${process.pid}.tmp`;
  // The release user's alone (600), whatever the umask; link() keeps the mode.
  fs.writeFileSync(temp, JSON.stringify(mine), { mode: LOCK_MODE });
  fs.chmodSync(temp, LOCK_MODE);
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        // link() fails if the lock exists: creating it is atomic, and it appears whole.
        fs.linkSync(temp, file);
        return () => {
          if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = readHolder(file);
      if (holder && alive(holder)) {
        throw new LockedError(
          `another release is running (pid ${holder.pid}, since ${holder.since}; lock ${file}): wait for it to finish`,
        );
      }
      // Dead (or unreadable, written by no release): take it over. Another taker that raced us
      // fails at link() and sees our live pid.
      console.log(`release: the lock of pid ${holder?.pid ?? "?"} is left over (that process is gone): taking it over`);
      fs.rmSync(file, { force: true });
    }
    throw new LockedError(`could not take the lock ${file}`);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
