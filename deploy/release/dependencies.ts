/**
 * node_modules of a release (the site's, and the studio's in admin/): installed with `npm ci` only
 * when the package's lockfile (or Node's major version) differs from the previous release's;
 * otherwise a copy of the previous release's (`cp -a --reflink=auto`: a copy-on-write clone where the
 * file system has them, btrfs or XFS, else a real copy; no download). Each release's packages are its
 * own: the content check and the build run the new commit's code (its package.json's scripts, its
 * gatsby-node, its packages' own code), and with files shared between releases (hard links, as before)
 * a commit that never goes live could rewrite what the live release and the rollback target run.
 * node_modules/.cache (tools' scratch files) is left out.
 */
import fs from "node:fs";
import path from "node:path";
import { adminInstallNeeded as installNeeded } from "../../tools/ensure-admin";
import { must, run, shell } from "./exec";

export const PACKAGE_DIRS = [".", "admin"];
const NODE_MARK = ".release-node-version";

const sameFile = (a: string, b: string) =>
  fs.existsSync(a) && fs.existsSync(b) && fs.readFileSync(a).equals(fs.readFileSync(b));

/** Where this package's node_modules can come from unchanged, if anywhere. */
function reusable(dir: string, from: string | undefined, pkg: string): string | undefined {
  if (!from) return undefined;
  const modules = path.join(from, pkg, "node_modules");
  if (!fs.existsSync(modules)) return undefined;
  if (!sameFile(path.join(dir, pkg, "package-lock.json"), path.join(from, pkg, "package-lock.json"))) return undefined;
  const mark = path.join(from, pkg, NODE_MARK);
  // A seed checkout has no mark: it runs under this very Node.
  const built = fs.existsSync(mark) ? fs.readFileSync(mark, "utf8").trim() : process.versions.node.split(".")[0];
  if (built !== process.versions.node.split(".")[0]) return undefined;
  // What is installed must be what the lockfile asks for (a seed checkout may be behind its lockfile).
  return installNeeded(path.join(from, pkg)) ? undefined : modules;
}

export interface Installed {
  /** Per package folder: "npm ci", or where it was copied from. */
  [pkg: string]: string;
}

export async function installDependencies(
  dir: string,
  sources: Array<string | undefined>,
  npmCi: string,
  env: NodeJS.ProcessEnv,
): Promise<Installed> {
  const done: Installed = {};
  for (const pkg of PACKAGE_DIRS) {
    if (!fs.existsSync(path.join(dir, pkg, "package-lock.json"))) continue;
    const target = path.join(dir, pkg, "node_modules");
    const from = sources.map((source) => reusable(dir, source, pkg)).find(Boolean);
    if (from) {
      await must("dependencies", run("cp", ["-a", "--reflink=auto", from, target], { quiet: true }));
      fs.rmSync(path.join(target, ".cache"), { recursive: true, force: true });
      done[pkg] = `copied from ${from}`;
    } else {
      console.log(`release: ${pkg}/package-lock.json changed (or no earlier install): ${npmCi}`);
      // The dev dependencies too: the build needs them (npm ci would leave them out under NODE_ENV=production).
      await must(
        "dependencies",
        shell(npmCi, {}, { cwd: path.join(dir, pkg), env: { ...env, NODE_ENV: "development" } }),
      );
      done[pkg] = "npm ci";
    }
    fs.writeFileSync(path.join(dir, pkg, NODE_MARK), `${process.versions.node.split(".")[0]}\n`);
  }
  return done;
}
