/**
 * The release root, as Capistrano lays it out:
 *   releases/<id>/   the files of one commit each, no .git (id: UTC time and short commit), built
 *                    in place, with .release.json (its commit, title, time and build) once ready
 *   build/           the release being built (always this path, for the build caches' sake)
 *   build-tmp/       the private HOME and temporary folder of the build's sandbox (sandbox.ts)
 *   current          a symlink to the live release, replaced atomically
 *   shared/          what outlives releases: the git mirror, the lock, the status, the settings,
 *                    logs/ (each release attempt's own log), packages/ (node_modules, one per
 *                    lockfile, shared read-only by the releases: dependencies.ts), npm-cache/
 * nginx serves current/public through current/nginx/cyrus.conf; the service runs in current/.
 */
import fs from "node:fs";
import path from "node:path";

export interface ReleaseInfo {
  id: string;
  commit: string;
  title: string;
  /** When the commit was made, and when the release was built (ISO). */
  commitTime: string;
  builtAt: string;
  /** Gatsby's webpack compilation hash: every page of the build carries it. */
  buildHash: string;
  /**
   * The modification time (Unix seconds) given to its public/home/index.html when it was made ready:
   * nginx's ETag carries it, so the live check knows which release answered. The compilation hash
   * alone does not: a change of text leaves the scripts, and so the hash, as they were.
   */
  homeStamp?: number;
}

export const paths = (root: string) => ({
  releases: path.join(root, "releases"),
  current: path.join(root, "current"),
  shared: path.join(root, "shared"),
  mirror: path.join(root, "shared", "repo.git"),
  /** Where each release is built before it is renamed to releases/<id> (build.ts says why). */
  build: path.join(root, "build"),
  /** The sandbox's private HOME and temporary folder (sandbox.ts): emptied by every release. */
  buildTmp: path.join(root, "build-tmp"),
  /** node_modules of each lockfile, shared read-only by the releases that have it (dependencies.ts). */
  packages: path.join(root, "shared", "packages"),
  /** npm's cache, for `npm ci` in the sandbox alone (never the release user's HOME: it holds git's settings). */
  npmCache: path.join(root, "shared", "npm-cache"),
  /** Who holds the release lock; the lock itself is a transaction on release.lock.db (lock.ts). */
  lock: path.join(root, "shared", "release.lock"),
  status: path.join(root, "shared", "release-status.json"),
  /** One log per release attempt (release-log.ts): not under anything nginx serves. */
  logs: path.join(root, "shared", "logs"),
});

export const INFO_FILE = ".release.json";

/** The folders of a release with packages of their own: the site's, and the studio's (admin/). */
export const PACKAGE_DIRS = [".", "admin"];

/** UTC time to the second, e.g. 20261126T105404Z. */
export const timeStamp = (now: Date): string =>
  now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");

export function releaseId(commit: string, now = new Date()): string {
  return `${timeStamp(now)}-${commit.slice(0, 7)}`;
}

export function readInfo(dir: string): ReleaseInfo | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, INFO_FILE), "utf8")) as ReleaseInfo;
  } catch {
    return undefined;
  }
}

/**
 * Written last, whole, then renamed into place: a folder without it is not a release. The temporary
 * file is made new ("wx"): one already there, a link a build left in its release folder included,
 * is removed rather than written through.
 */
export function writeJsonAtomically(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { flag: "wx" });
  fs.renameSync(temp, file);
}

/**
 * `dir`/`parts`, refused when any part of it under `dir` is a symbolic link. The build (the new
 * commit's code, sandbox.ts) writes its release folder as it likes, links included; the runner, which
 * is not sandboxed, must never write, move or stamp through one (a link to the live release, or to
 * shared/). Parts that do not exist yet are fine.
 */
export function ownPath(dir: string, ...parts: string[]): string {
  let at = dir;
  for (const part of parts.flatMap((p) => p.split("/")).filter(Boolean)) {
    at = path.join(at, part);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(at);
    } catch {
      break;
    }
    if (stat.isSymbolicLink())
      throw new Error(`${path.relative(dir, at)} in the release folder is a symbolic link, not the release's own file`);
  }
  return path.join(dir, ...parts);
}

/** The ready releases, oldest first (ids sort by time). */
export function listReleases(root: string): ReleaseInfo[] {
  const { releases } = paths(root);
  if (!fs.existsSync(releases)) return [];
  return fs
    .readdirSync(releases)
    .sort()
    .map((id) => readInfo(path.join(releases, id)))
    .filter((info): info is ReleaseInfo => info !== undefined);
}

/** The id of the live release, or undefined before the first. */
export function currentId(root: string): string | undefined {
  try {
    return path.basename(fs.readlinkSync(paths(root).current));
  } catch {
    return undefined;
  }
}

/**
 * Points `current` at a release: a new symlink under a temporary name, renamed over the old one
 * (rename is atomic, so nginx and the service always find one whole release there).
 */
export function switchCurrent(root: string, id: string): void {
  const { current, releases } = paths(root);
  const temp = `${current}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  fs.symlinkSync(path.join(releases, id), temp);
  fs.renameSync(temp, current);
}
