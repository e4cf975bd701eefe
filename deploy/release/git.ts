/**
 * The site's repository: a bare mirror in shared/ (fetched before each release, so a release never
 * downloads the whole history), and the files of one commit per release folder, written from the
 * mirror. A release carries no .git: the mirror holds every branch, the editing studio's unpublished
 * drafts (cms/*) included, and it is the release user's alone (mode 700), whereas releases are read
 * by nginx and the service.
 *
 * Refs and commits that come from outside (RELEASE_BRANCH, --commit, a release's record) follow
 * --end-of-options on git's command lines: a "ref" such as --output=<file> is then a bad revision,
 * never an option.
 */
import fs from "node:fs";
import path from "node:path";
import { must, run } from "./exec";
import { credentialFor, type Repository } from "./repository";
import type { CommitRef } from "./status";

const git = (args: string[], env: Record<string, string> = {}) =>
  run("git", args, { quiet: true, env: { ...process.env, ...env } });

/** The mirror's mode: it holds the drafts and the remote's address, for the release user alone. */
export const MIRROR_MODE = 0o700;

/**
 * Fetches every ref of the repository into the mirror (cloning it the first time). The URL is given
 * without its credential (repository.ts): the mirror's config keeps that clean URL, and a mirror
 * made by an earlier version, whose config held the URL as written in the settings, gets the clean
 * one too.
 */
export async function updateMirror(repo: Repository, mirror: string): Promise<void> {
  const credential = credentialFor(repo);
  if (!fs.existsSync(path.join(mirror, "config"))) {
    // 700 before git writes into it: the folders git makes inside follow the umask (755).
    fs.rmSync(mirror, { recursive: true, force: true });
    fs.mkdirSync(mirror, { recursive: true, mode: MIRROR_MODE });
    fs.chmodSync(mirror, MIRROR_MODE);
    await must(
      "fetch",
      git([...credential.args, "clone", "--quiet", "--mirror", "--end-of-options", repo.url, mirror], credential.env),
    );
    return;
  }
  fs.chmodSync(mirror, MIRROR_MODE);
  await must("fetch", git(["--git-dir", mirror, "config", "--end-of-options", "remote.origin.url", repo.url]));
  await must(
    "fetch",
    git(
      [
        ...credential.args,
        "--git-dir",
        mirror,
        "fetch",
        "--quiet",
        "--prune",
        "--force",
        "--end-of-options",
        "origin",
        "+refs/*:refs/*",
      ],
      credential.env,
    ),
  );
}

export async function resolveCommit(mirror: string, ref: string): Promise<CommitRef> {
  const { output } = await must(
    "fetch",
    git(["--git-dir", mirror, "log", "-1", "--format=%H%n%cI%n%s", "--end-of-options", `${ref}^{commit}`, "--"]),
  ).catch(() => {
    throw new Error(`${ref} is not a commit or branch of the repository`);
  });
  const [commit = "", time = "", title = ""] = output.trim().split("\n");
  return { commit, time, title };
}

const INDEX_PREFIX = "release-index.";

/**
 * Writes the files of `commit` into `dir`, without a .git: the commit's tree is read into an index
 * of its own (in the mirror, which only the release user reads; removed after) and checked out from
 * it into `dir`. Not `git checkout`, which would move the mirror's HEAD (the default branch).
 */
export async function checkout(mirror: string, commit: string, dir: string): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  // One release at a time (the lock): any other such index was left by a release that was killed.
  for (const name of fs.readdirSync(mirror).filter((n) => n.startsWith(INDEX_PREFIX)))
    fs.rmSync(path.join(mirror, name), { force: true });
  const index = { GIT_INDEX_FILE: path.join(mirror, `${INDEX_PREFIX}${process.pid}`) };
  try {
    await must("checkout", git(["--git-dir", mirror, "read-tree", "--end-of-options", commit], index));
    await must("checkout", git(["--git-dir", mirror, "--work-tree", dir, "checkout-index", "--all", "--force"], index));
  } finally {
    fs.rmSync(index.GIT_INDEX_FILE, { force: true });
  }
}

/** Whether any of `paths` differs between two commits. */
export async function changed(mirror: string, from: string, to: string, paths: string[]): Promise<boolean> {
  const { code } = await git(["--git-dir", mirror, "diff", "--quiet", "--end-of-options", from, to, "--", ...paths]);
  return code !== 0;
}

/**
 * Releases made by earlier versions were clones of the mirror: their .git hard-linked its packs,
 * drafts included, under folders others can read. Removed (a release needs none of it).
 */
export function removeReleaseRepositories(releases: string): void {
  if (!fs.existsSync(releases)) return;
  for (const id of fs.readdirSync(releases))
    fs.rmSync(path.join(releases, id, ".git"), { recursive: true, force: true });
}
