/**
 * The site's repository: a bare mirror in shared/ (fetched before each release, so a release never
 * downloads the whole history), and a checkout of one commit per release folder, cloned from the
 * mirror (a local clone hard-links its objects: no copy).
 */
import fs from "node:fs";
import { must, run } from "./exec";
import type { CommitRef } from "./status";

const git = (args: string[], cwd?: string) => run("git", args, { cwd, quiet: true });

export async function updateMirror(repo: string, mirror: string): Promise<void> {
  if (!fs.existsSync(mirror)) await must("fetch", git(["clone", "--quiet", "--mirror", repo, mirror]));
  else
    await must("fetch", git(["--git-dir", mirror, "fetch", "--quiet", "--prune", "--force", repo, "+refs/*:refs/*"]));
}

export async function resolveCommit(mirror: string, ref: string): Promise<CommitRef> {
  const { output } = await must(
    "fetch",
    git(["--git-dir", mirror, "log", "-1", "--format=%H%n%cI%n%s", `${ref}^{commit}`, "--"]),
  ).catch(() => {
    throw new Error(`${ref} is not a commit or branch of the repository`);
  });
  const [commit = "", time = "", title = ""] = output.trim().split("\n");
  return { commit, time, title };
}

export async function checkout(mirror: string, commit: string, dir: string): Promise<void> {
  await must("checkout", git(["clone", "--quiet", "--no-checkout", mirror, dir]));
  await must("checkout", git(["-c", "advice.detachedHead=false", "checkout", "--quiet", commit], dir));
}

/** Whether any of `paths` differs between two commits. */
export async function changed(mirror: string, from: string, to: string, paths: string[]): Promise<boolean> {
  const { code } = await git(["--git-dir", mirror, "diff", "--quiet", from, to, "--", ...paths]);
  return code !== 0;
}
