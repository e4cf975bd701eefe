/**
 * One release at a time. The lock is a transaction: the release holds `BEGIN EXCLUSIVE` open on a
 * small SQLite file beside the lock's name (shared/release.lock.db) for as long as it runs. SQLite
 * takes it with fcntl locks, which only one process can hold, and which the kernel drops when that
 * process ends, however it ends. So a release that was killed never blocks the next one, and of two
 * that start after it (the path unit and the timer) exactly one gets the lock: the other is refused
 * at once (no busy wait). Nothing is decided by reading a file and then acting on what it said.
 *
 * The lock's name itself (shared/release.lock) is a note of who holds it: pid, process start time
 * (so a reused pid is not taken for the release that died) and since when. Only the holder writes it,
 * once it holds the transaction, and removes it before letting go; it serves the messages. One that
 * names a process that is gone was left by a killed release. It keeps the form and name of the lock
 * before this one (a file made with link()), so a runner of either kind sees the other's release
 * running while a server moves from one to the other.
 */
import fs from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import { nodeSqlite } from "./sqlite";

interface Holder {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: when that process started (clock ticks since boot). */
  start?: string;
  since: string;
}

/** Who holds the lock; `pid` is unknown for the instant between taking it and writing the note. */
export type LockHolder = Partial<Holder>;

export class LockedError extends Error {}

/** The lock's files are the release user's alone, whatever the umask. */
export const LOCK_MODE = 0o600;

/** The SQLite file whose transaction is the lock. */
const databaseOf = (file: string) => `${file}.db`;

/**
 * The transactions held by this process: a connection that was collected would close, and its
 * lock would go with it.
 */
const held = new Set<DatabaseSync>();

/** Fields 3 on of /proc/<pid>/stat (field 3, the state, first), or undefined when there is no such process. */
function statFields(pid: number): string[] | undefined {
  try {
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

const startTime = (pid: number): string | undefined => statFields(pid)?.[19];

function alive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists, under another user.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const fields = statFields(holder.pid);
  // A zombie (Z) or one being reaped (X) has ended, and its locks went with it; only its parent has
  // not collected it yet (in a container whose first process reaps late, for minutes).
  if (fields && /^[ZX]$/.test(fields[0] ?? "")) return false;
  const start = fields?.[19];
  return !(holder.start && start && start !== holder.start);
}

function readHolder(file: string): Holder | undefined {
  try {
    const holder = JSON.parse(fs.readFileSync(file, "utf8")) as Holder;
    return Number.isInteger(holder.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined;
  }
}

function liveHolder(file: string): Holder | undefined {
  const holder = readHolder(file);
  return holder && alive(holder) ? holder : undefined;
}

/**
 * The lock's transaction, or undefined when another process holds it. No busy timeout: SQLite
 * answers SQLITE_BUSY at once instead of waiting for the holder.
 */
function begin(file: string): DatabaseSync | undefined {
  const { DatabaseSync } = nodeSqlite();
  // The default rollback journal: in WAL mode an exclusive transaction would not keep others out.
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(databaseOf(file), { timeout: 0 });
    // SQLite gives its journal the database file's mode.
    fs.chmodSync(databaseOf(file), LOCK_MODE);
  } catch (error) {
    throw new Error(`cannot open the lock ${databaseOf(file)}: ${(error as Error).message}`);
  }
  try {
    db.exec("BEGIN EXCLUSIVE");
    return db;
  } catch (error) {
    db.close();
    // SQLITE_BUSY, or one of its extended codes.
    if (((error as { errcode?: number }).errcode ?? 0) % 256 === 5) return undefined;
    throw error;
  }
}

function end(db: DatabaseSync): void {
  held.delete(db);
  try {
    if (db.isTransaction) db.exec("ROLLBACK");
  } finally {
    db.close();
  }
}

const locked = (file: string, holder: Holder | undefined) =>
  new LockedError(
    `another release is running (${holder ? `pid ${holder.pid}, since ${holder.since}` : "it has just taken the lock"}; lock ${file}): wait for it to finish`,
  );

/**
 * Test-only (release-lock.test.ts): RELEASE_TEST_TAKEOVER_PAUSE_MS holds a taker between reading a
 * left-over note and writing its own, so that tests can put a second taker in that moment.
 */
function takeoverPause(): void {
  const ms = Number(process.env.RELEASE_TEST_TAKEOVER_PAUSE_MS);
  if (ms > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Who holds the lock, if a live process does (a lock left by a killed release holds nothing). */
export function lockHolder(file: string): LockHolder | undefined {
  // The note of a live process: it holds the transaction (or the lock before this one).
  const holder = liveHolder(file);
  if (holder) return holder;
  if (!fs.existsSync(databaseOf(file))) return undefined;
  // Otherwise the transaction says: taken and let go at once. A taker at that very instant is
  // refused as if a release were running; this is asked only while one is (runner.ts's wait).
  const db = begin(file);
  if (!db) return {};
  end(db);
  return undefined;
}

/** Takes the lock or throws LockedError naming the release that holds it. Returns its release. */
export function acquireLock(file: string): () => void {
  const db = begin(file);
  if (!db) throw locked(file, liveHolder(file));
  held.add(db);
  try {
    const holder = readHolder(file);
    // Alive, yet the transaction was free: a runner of the lock before this one holds the note.
    if (holder && alive(holder)) throw locked(file, holder);
    if (fs.existsSync(file)) {
      console.log(`release: the lock of pid ${holder?.pid ?? "?"} is left over (that process is gone): taking it over`);
    }
    takeoverPause();
    const mine: Holder = { pid: process.pid, start: startTime(process.pid), since: new Date().toISOString() };
    // Written whole under another name, then renamed over a left-over note: never read half-written.
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(mine), { mode: LOCK_MODE });
    fs.chmodSync(temp, LOCK_MODE);
    fs.renameSync(temp, file);
  } catch (error) {
    end(db);
    throw error;
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    try {
      // The note first: once the transaction ends, the next release writes its own.
      if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
    } finally {
      end(db);
    }
  };
}
