/**
 * node_modules of a release (the site's, and the studio's in admin/): installed once per lockfile, into
 * the packages' store, shared/packages/<site|admin>-<hash>/node_modules (the hash of the lockfile and
 * Node's major version), and shared by every release of that lockfile: <release>/node_modules is a
 * symbolic link to it (an absolute one: build/ and releases/<id> are not as deep). No copy, no
 * download, no disk for a release whose lockfiles did not change.
 *
 * Sharing is safe because nothing a commit runs can write the store: the content check, the build and
 * the rest run in the sandbox (sandbox.ts), which shows the release's own store entries read-only and
 * no other. A new entry is made by `npm ci` in the sandbox too, with the network, where it can write
 * that entry alone (bound where npm looks for it, at the release's node_modules) and npm's cache; the
 * first release of a server copies it instead from the checkout it was started from (first-release,
 * the tests: RELEASE_SEED_NODE_MODULES), a server's first release after this change from the live
 * release's own node_modules (`cp -a --reflink=auto`: a clone where the file system has them). An entry
 * is filled under a temporary name and renamed when whole: one that exists is complete.
 *
 * An entry that no release (nor build/) links to is removed (pruneStore): at the start of a release
 * (one made by a release that was killed), after a failed one (made by `npm ci` of a commit that
 * never went live: its install scripts wrote it, so no later release may use it) and after releases
 * are pruned.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { adminInstallNeeded as installNeeded } from "../../tools/ensure-admin";
import { must, run } from "./exec";
import { ownPath, PACKAGE_DIRS, paths } from "./layout";
import { linkedEntries, runSandboxed } from "./sandbox";

const NODE_MARK = ".release-node-version";
/** A store entry being filled: removed by the next release if it was left so. */
const PARTIAL = ".partial";

const nodeMajor = () => process.versions.node.split(".")[0]!;

const sameFile = (a: string, b: string) =>
  fs.existsSync(a) && fs.existsSync(b) && fs.readFileSync(a).equals(fs.readFileSync(b));

/** The store entry (a folder holding node_modules) for the lockfile of `dir`/`pkg`. */
export function storeEntry(root: string, dir: string, pkg: string): string {
  const hash = crypto
    .createHash("sha256")
    .update(fs.readFileSync(path.join(dir, pkg, "package-lock.json")))
    .update(`\0node ${nodeMajor()} ${process.platform}-${process.arch}`)
    .digest("hex")
    .slice(0, 16);
  return path.join(paths(root).packages, `${pkg === "." ? "site" : pkg}-${hash}`);
}

/**
 * Where this package's node_modules can be copied from into a new entry, if anywhere (their own folder, not a link).
 */
function reusable(dir: string, from: string | undefined, pkg: string): string | undefined {
  if (!from) return undefined;
  const modules = path.join(from, pkg, "node_modules");
  if (!fs.lstatSync(modules, { throwIfNoEntry: false })?.isDirectory()) return undefined;
  if (!sameFile(path.join(dir, pkg, "package-lock.json"), path.join(from, pkg, "package-lock.json"))) return undefined;
  const mark = path.join(from, pkg, NODE_MARK);
  // A seed checkout has no mark: it runs under this very Node.
  const built = fs.existsSync(mark) ? fs.readFileSync(mark, "utf8").trim() : nodeMajor();
  if (built !== nodeMajor()) return undefined;
  // What is installed must be what the lockfile asks for (a seed checkout may be behind its lockfile).
  return installNeeded(path.join(from, pkg)) ? undefined : modules;
}

export interface Installed {
  /** Per package folder: "shared: <entry>", "npm ci", or where the new entry was copied from. */
  [pkg: string]: string;
}

export interface InstallOptions {
  root: string;
  /** Releases (or a checkout) whose own node_modules may fill a new entry. */
  sources: Array<string | undefined>;
  npmCi: string;
  env: NodeJS.ProcessEnv;
  /** The sandbox's private HOME and temporary folder. */
  scratch: string;
  /** Test-only (RELEASE_SEED_NODE_MODULES): a checkout npm ci's sandbox may read, for a test's stand-in for npm ci. */
  seed?: string;
}

export async function installDependencies(dir: string, options: InstallOptions): Promise<Installed> {
  const { root } = options;
  const done: Installed = {};
  for (const pkg of PACKAGE_DIRS) {
    if (!fs.existsSync(ownPath(dir, pkg, "package-lock.json"))) continue;
    const target = ownPath(dir, pkg, "node_modules");
    const entry = storeEntry(root, dir, pkg);
    const modules = path.join(entry, "node_modules");
    if (fs.existsSync(modules)) {
      done[pkg] = `shared: ${path.relative(root, entry)}`;
    } else {
      const partial = `${entry}${PARTIAL}`;
      fs.rmSync(partial, { recursive: true, force: true });
      fs.mkdirSync(partial, { recursive: true });
      const from = options.sources.map((source) => reusable(dir, source, pkg)).find(Boolean);
      if (from) {
        await must(
          "dependencies",
          run("cp", ["-a", "--reflink=auto", from, path.join(partial, "node_modules")], { quiet: true }),
        );
        done[pkg] = `copied from ${from}`;
      } else {
        console.log(`release: ${pkg}/package-lock.json is new (no install of it yet): ${options.npmCi}`);
        fs.mkdirSync(path.join(partial, "node_modules"));
        // Where npm looks, an empty folder for the sandbox to mount the new entry on.
        fs.rmSync(target, { recursive: true, force: true });
        fs.mkdirSync(target);
        fs.mkdirSync(paths(root).npmCache, { recursive: true, mode: 0o700 });
        // The dev dependencies too: the build needs them (npm ci would leave them out under NODE_ENV=production).
        await must(
          "dependencies",
          runSandboxed("sh", ["-c", options.npmCi], {
            cwd: path.join(dir, pkg),
            env: { ...options.env, NODE_ENV: "development" },
            sandbox: {
              release: dir,
              scratch: options.scratch,
              network: true,
              writable: [
                [path.join(partial, "node_modules"), target],
                [paths(root).npmCache, paths(root).npmCache],
              ],
              readOnly: options.seed ? [options.seed] : [],
              setEnv: { npm_config_cache: paths(root).npmCache },
            },
          }),
        );
        done[pkg] = "npm ci";
      }
      fs.rmSync(path.join(partial, "node_modules", ".cache"), { recursive: true, force: true });
      fs.renameSync(partial, entry);
    }
    // Whatever the commit (or npm ci's mount point) left there: the release's packages are the entry.
    fs.rmSync(target, { recursive: true, force: true });
    fs.symlinkSync(modules, target);
    const mark = ownPath(dir, pkg, NODE_MARK);
    fs.rmSync(mark, { force: true });
    fs.writeFileSync(mark, `${nodeMajor()}\n`, { flag: "wx" });
  }
  return done;
}

/** Removes the store's entries that neither build/ nor any release links to, and unfinished ones. */
export function pruneStore(root: string): void {
  const { packages, releases, build } = paths(root);
  if (!fs.existsSync(packages)) return;
  const folders = [
    build,
    ...(fs.existsSync(releases) ? fs.readdirSync(releases) : []).map((id) => path.join(releases, id)),
  ];
  const used = new Set(folders.flatMap(linkedEntries));
  for (const name of fs.readdirSync(packages)) {
    const entry = path.join(packages, name);
    if (!used.has(entry)) fs.rmSync(entry, { recursive: true, force: true });
  }
}
