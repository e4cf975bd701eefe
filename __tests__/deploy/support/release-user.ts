/**
 * The user a test release runs as: never root, never the service's, as on a server (docs/server-design.md,
 * "What each user may do"). Run as root (CI), the tests create a system user for it, `cyrus-release-test`, once per
 * machine; run as anyone else, that user already is unprivileged and is used as it is.
 *
 * That user cannot use what root's checkout holds: Node may sit in root's home (`.ci/use-node-22.sh`
 * keeps it under ~/.cache), the checkout itself may be under /root, and fs.protected_hardlinks forbids
 * hard-linking root's files, which the first release does with the seed's node_modules. So it gets
 * its own copies, as the release user on a server has its own checkout: this checkout's files (tracked
 * and new, as they are now), its node_modules and admin/node_modules (without their .cache), and the
 * Node binary running the tests.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot } from "./stack";

export const RELEASE_TEST_USER = "cyrus-release-test";
/** nginx's own user on a server (cyrus-web): neither the release's nor the service's, never root. */
export const WEB_TEST_USER = "cyrus-web-test";

export interface ReleaseUser {
  name: string;
  uid: number;
  gid: number;
}

const must = (command: string, args: string[], options: { cwd?: string } = {}): string => {
  const result = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${result.stderr || result.error?.message}`);
  return result.stdout;
};

const idOf = (flag: "-u" | "-g", name: string): number | undefined => {
  const result = spawnSync("id", [flag, name], { encoding: "utf8" });
  return result.status === 0 ? Number(result.stdout.trim()) : undefined;
};

export function releaseUser(): ReleaseUser {
  return systemUser(RELEASE_TEST_USER);
}

/** A system user of the tests' own (made once per machine when run as root; else the user running them). */
export function systemUser(name: string): ReleaseUser {
  if (process.getuid!() !== 0) return { name: os.userInfo().username, uid: process.getuid!(), gid: process.getgid!() };
  if (idOf("-u", name) === undefined) {
    // A system user with no home and no shell: it only runs what the tests start as it.
    const made = spawnSync(
      "/usr/sbin/useradd",
      [
        "--system",
        "--user-group",
        "--home-dir",
        "/nonexistent",
        "--no-create-home",
        "--shell",
        "/usr/sbin/nologin",
        name,
      ],
      { encoding: "utf8" },
    );
    // 9: another test process made it meanwhile.
    if (made.status !== 0 && made.status !== 9) throw new Error(`useradd ${name}: ${made.stderr}`);
  }
  const uid = idOf("-u", name);
  const gid = idOf("-g", name);
  if (uid === undefined || gid === undefined || uid === 0) throw new Error(`no unprivileged user ${name}`);
  return { name, uid, gid };
}

export function chownTree(dir: string, user: ReleaseUser): void {
  if (process.getuid!() === 0) must("chown", ["-R", `${user.uid}:${user.gid}`, dir]);
}

/**
 * The user's own checkout in `dest` (with node_modules) and Node in `nodeDir`/node: what its release
 * command runs from, and where its first release's packages come from (RELEASE_SEED_NODE_MODULES).
 */
export function ownCheckout(dest: string, nodeDir: string, user: ReleaseUser): void {
  const files = must("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: projectRoot })
    .split("\0")
    .filter(Boolean);
  for (const file of new Set(files)) {
    const from = path.join(projectRoot, file);
    if (!fs.existsSync(from)) continue; // deleted, not yet committed
    fs.mkdirSync(path.dirname(path.join(dest, file)), { recursive: true });
    fs.copyFileSync(from, path.join(dest, file));
  }
  for (const pkg of [".", "admin"]) {
    must("cp", ["-a", path.join(projectRoot, pkg, "node_modules"), path.join(dest, pkg, "node_modules")]);
    fs.rmSync(path.join(dest, pkg, "node_modules", ".cache"), { recursive: true, force: true });
  }
  fs.mkdirSync(nodeDir, { recursive: true });
  fs.copyFileSync(process.execPath, path.join(nodeDir, "node"));
  fs.chmodSync(path.join(nodeDir, "node"), 0o755);
  chownTree(dest, user);
}
