/**
 * Each release attempt's own log, shared/logs/<id>.log, for whoever runs the server: the steps with
 * their times, every command's whole output (git's, npm's, the build's, nginx's), and the failure in
 * full. The status file (status.ts) is public and names the log by its id only; what only the server
 * should know (addresses, paths, settings, the build's output) is written here instead.
 *
 * The folder is 0700 and the files 0600, the release user's: the service's user is in the release
 * user's group (it writes the push hook's notes), so a group-readable log would be readable by the
 * process that faces the internet. nginx serves shared/release-status.json alone, never shared/.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import path from "node:path";
import { paths } from "./layout";

/** How many attempts' logs are kept (the newest); one a push, so weeks of them. */
export const LOGS_KEPT = 50;

export class ReleaseLog {
  private fd: number;

  constructor(
    readonly folder: string,
    private name: string,
  ) {
    this.fd = fs.openSync(this.file, "a", 0o600);
  }

  /**
   * What the status calls it: the release's id (UTC time and short commit), or the time alone before the commit is
   * known.
   */
  get id(): string {
    return this.name;
  }

  get file(): string {
    return path.join(this.folder, `${this.name}.log`);
  }

  write(text: string | Buffer): void {
    try {
      if (typeof text === "string") fs.writeSync(this.fd, text);
      else fs.writeSync(this.fd, text);
    } catch {
      // A full disk must not stop the release's own work too; the command line still says it all.
    }
  }

  /** One line of the runner's own, with the time. */
  note(line: string): void {
    this.write(`[${new Date().toISOString()}] ${line}\n`);
  }

  /** Named after the release once its commit is known (a rename: the open file goes on being written). */
  rename(id: string): void {
    if (id === this.name) return;
    const before = this.file;
    this.name = id;
    fs.renameSync(before, this.file);
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Opens the log of a new attempt and removes the oldest beyond LOGS_KEPT. */
export function openLog(root: string, id: string): ReleaseLog {
  const { logs } = paths(root);
  fs.mkdirSync(logs, { recursive: true, mode: 0o700 });
  // A folder made by hand (or under another umask) is tightened too.
  fs.chmodSync(logs, 0o700);
  const old = fs
    .readdirSync(logs)
    .filter((name) => name.endsWith(".log"))
    .sort();
  for (const name of old.slice(0, Math.max(0, old.length - (LOGS_KEPT - 1)))) fs.rmSync(path.join(logs, name));
  return new ReleaseLog(logs, id);
}

const current = new AsyncLocalStorage<ReleaseLog>();

/** The log of the attempt this code runs for (run() in exec.ts writes every command's output to it). */
export const currentLog = (): ReleaseLog | undefined => current.getStore();

export const withLog = <T>(log: ReleaseLog, work: () => Promise<T>): Promise<T> => current.run(log, work);

/** Said to the operator (stderr) and written to the log. */
export function tell(line: string): void {
  console.error(line);
  currentLog()?.note(line);
}

/** Said to the operator (stdout) and written to the log. */
export function say(line: string): void {
  console.log(line);
  currentLog()?.note(line);
}

/**
 * Text with the user and password (a token) of every URL in it masked: the log names the repository's
 * host, never its secret (git masks them in its own messages; the command lines we write must too).
 */
export const maskCredentials = (text: string): string =>
  text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, "$1***@");
