/**
 * `npm run check:lockfile`: fails when package-lock.json holds a package version below the lowest
 * safe version listed in tools/lockfile-minimums.json. Offline: it reads two files and asks no
 * advisory service (`npm audit` cannot reach one from the build machines).
 *
 *   npm run check:lockfile -- [--lock <package-lock.json>] [--minimums <list.json>]
 *
 * Exit code 0 when every installed copy is at or above its minimum, 1 with one line per copy
 * below it, 2 when a file cannot be read or the list is malformed.
 */
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import semver from "semver";

const projectRoot = path.resolve(__dirname, "..");

interface Rule {
  package: string;
  minimum: string;
  /** Only copies in this semver range (one release line of a package that has several). */
  range?: string;
  advisories?: string[];
}

interface Lockfile {
  packages?: Record<string, { version?: string }>;
}

interface Below {
  lockPath: string;
  name: string;
  version: string;
  rule: Rule;
}

/** The package name of a lockfile key: "node_modules/a/node_modules/@s/b" → "@s/b". */
export function packageName(lockPath: string): string | undefined {
  const at = lockPath.lastIndexOf("node_modules/");
  return at < 0 ? undefined : lockPath.slice(at + "node_modules/".length);
}

function readRules(file: string): Rule[] {
  const list = JSON.parse(fs.readFileSync(file, "utf8")) as { minimums?: unknown };
  if (!Array.isArray(list.minimums)) throw new Error(`${file}: "minimums" must be a list`);
  return (list.minimums as Array<Partial<Rule>>).map((rule, i) => {
    const where = `${file}: minimums[${i}]`;
    if (typeof rule.package !== "string" || !rule.package) throw new Error(`${where}: "package" is missing`);
    if (!semver.valid(rule.minimum))
      throw new Error(`${where} (${rule.package}): "minimum" must be a version such as 1.2.3`);
    if (rule.range !== undefined && !semver.validRange(rule.range))
      throw new Error(`${where} (${rule.package}): "range" is not a semver range`);
    return rule as Rule;
  });
}

/** Every copy in the lockfile below the minimum of a rule that covers it. */
export function findBelowMinimum(lock: Lockfile, rules: readonly Rule[]): Below[] {
  const below: Below[] = [];
  for (const [lockPath, entry] of Object.entries(lock.packages ?? {})) {
    const name = packageName(lockPath);
    if (!name || !entry.version || !semver.valid(entry.version)) continue;
    for (const rule of rules) {
      if (rule.package !== name) continue;
      if (rule.range && !semver.satisfies(entry.version, rule.range, { includePrerelease: true })) continue;
      if (semver.lt(entry.version, rule.minimum)) below.push({ lockPath, name, version: entry.version, rule });
    }
  }
  return below;
}

function main(): number {
  const { values } = parseArgs({ options: { lock: { type: "string" }, minimums: { type: "string" } } });
  const lockFile = path.resolve(values.lock ?? path.join(projectRoot, "package-lock.json"));
  const listFile = path.resolve(values.minimums ?? path.join(projectRoot, "tools/lockfile-minimums.json"));
  let lock: Lockfile;
  let rules: Rule[];
  try {
    lock = JSON.parse(fs.readFileSync(lockFile, "utf8")) as Lockfile;
    rules = readRules(listFile);
  } catch (error) {
    console.error(`check-lockfile: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const below = findBelowMinimum(lock, rules);
  const copies = Object.keys(lock.packages ?? {}).length;
  if (below.length === 0) {
    console.log(
      `check-lockfile: ${copies} packages in ${path.basename(lockFile)}, none below the ${rules.length} minimums in ${path.relative(projectRoot, listFile)}`,
    );
    return 0;
  }
  console.error(
    `check-lockfile: ${below.length} package${below.length > 1 ? "s" : ""} in ${lockFile} below a safe version:`,
  );
  for (const { lockPath, name, version, rule } of below) {
    console.error(`  ${name}@${version} (${lockPath}) is below ${rule.minimum}: ${(rule.advisories ?? []).join("; ")}`);
  }
  console.error('Add or raise an entry under "overrides" in package.json, run `npm install`, then check again.');
  return 1;
}

if (require.main === module) process.exitCode = main();
