/**
 * docs/development.md ("What `npm ci` prints") explains every warning `npm ci` gives: each package of
 * either lockfile with an install script (npm 11 skips them), and each package of the root whose
 * declared peer the tree does not satisfy (npm's "ERESOLVE overriding peer dependency"). A dependency
 * that brings a new one fails here until its row is written.
 */
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { projectRoot } from "../support/serve";

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}
type Packages = Record<string, LockEntry>;

const lock = (dir: string): Packages =>
  (JSON.parse(fs.readFileSync(path.join(projectRoot, dir, "package-lock.json"), "utf8")) as { packages: Packages })
    .packages;
const nameOf = (key: string) => key.slice(key.lastIndexOf("node_modules/") + "node_modules/".length);

const doc = fs.readFileSync(path.join(projectRoot, "docs/development.md"), "utf8");
const section = doc.slice(doc.indexOf("## What `npm ci` prints"));
/** The packages named in the first column of the section's tables. */
const explained = new Set(
  [...section.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([^`]+)`/g)].map((n) => n[1]!)),
);

/** The copy of `peer` that Node would load from the package at `key` (up the node_modules folders). */
function resolvePeer(packages: Packages, key: string, peer: string): LockEntry | undefined {
  for (let dir = key; ;) {
    const found = packages[`${dir ? `${dir}/` : ""}node_modules/${peer}`];
    if (found || !dir) return found;
    const up = dir.lastIndexOf("/node_modules/");
    dir = up < 0 ? "" : dir.slice(0, up);
  }
}

test("the section exists and has its tables", () => {
  expect(section.startsWith("## What `npm ci` prints")).toBe(true);
  expect(explained.size).toBeGreaterThan(5);
});

test.each([".", "admin"])("every package with an install script in %s/package-lock.json is explained", (dir) => {
  const scripted = Object.entries(lock(dir))
    .filter(([key, entry]) => key && entry.hasInstallScript)
    .map(([key]) => nameOf(key));
  expect(scripted.length).toBeGreaterThan(0);
  expect([...new Set(scripted)].filter((name) => !explained.has(name))).toEqual([]);
});

test("every package of the root whose peer is not met (npm's ERESOLVE warning) is explained", () => {
  const packages = lock("");
  const unmet = Object.entries(packages).flatMap(([key, entry]) =>
    Object.entries(entry.peerDependencies ?? {})
      .filter(([peer]) => key && !entry.peerDependenciesMeta?.[peer]?.optional)
      .filter(([peer, range]) => {
        const found = resolvePeer(packages, key, peer);
        return !found?.version || !semver.satisfies(found.version, range, { includePrerelease: true });
      })
      .map(() => nameOf(key)),
  );
  expect(unmet.length).toBeGreaterThan(0);
  expect([...new Set(unmet)].filter((name) => !explained.has(name))).toEqual([]);
});
