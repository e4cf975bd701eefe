/**
 * `npm run check:lockfile`: fails when package-lock.json holds a package version below the lowest
 * safe version listed in src/scripts/lockfile-minimums.json. Offline: it reads two files and asks no
 * advisory service (`npm audit` cannot reach one from the build machines).
 *
 *   node src/scripts/check-lockfile.mjs [--lock <package-lock.json>] [--minimums <list.json>]
 *
 * Exit code 0 when every installed copy is at or above its minimum, 1 with one line per copy
 * below it, 2 when a file cannot be read or the list is malformed.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import semver from "semver";

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The package name of a lockfile key: "node_modules/a/node_modules/@s/b" → "@s/b". */
export function packageName(lockPath) {
  const at = lockPath.lastIndexOf("node_modules/");
  return at < 0 ? undefined : lockPath.slice(at + "node_modules/".length);
}

function readRules(file) {
  const list = JSON.parse(fs.readFileSync(file, "utf8"));
  if (!Array.isArray(list.minimums)) throw new Error(`${file}: "minimums" must be a list`);
  return list.minimums.map((rule, i) => {
    const where = `${file}: minimums[${i}]`;
    if (typeof rule.package !== "string" || !rule.package) throw new Error(`${where}: "package" is missing`);
    if (!semver.valid(rule.minimum))
      throw new Error(`${where} (${rule.package}): "minimum" must be a version such as 1.2.3`);
    if (rule.range !== undefined && !semver.validRange(rule.range))
      throw new Error(`${where} (${rule.package}): "range" is not a semver range`);
    return rule;
  });
}

/** Every copy in the lockfile below the minimum of a rule that covers it. */
export function findBelowMinimum(lock, rules) {
  const below = [];
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

function main() {
  const { values } = parseArgs({ options: { lock: { type: "string" }, minimums: { type: "string" } } });
  const lockFile = path.resolve(values.lock ?? path.join(projectRoot, "package-lock.json"));
  const listFile = path.resolve(values.minimums ?? path.join(projectRoot, "src/scripts/lockfile-minimums.json"));
  let lock;
  let rules;
  try {
    lock = JSON.parse(fs.readFileSync(lockFile, "utf8"));
    rules = readRules(listFile);
  } catch (error) {
    console.error(`check-lockfile: ${error.message}`);
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

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
