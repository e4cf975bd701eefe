/**
 * Installs the editing studio's own packages (admin/, its own React and Decap: docs/editing-studio.md)
 * unless admin/node_modules already holds what admin/package-lock.json asks for, so that `npm test`,
 * `npm run test:admin` and `npm run cms` work on a fresh clone after the root's `npm ci` alone.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

interface Lock {
  packages?: Record<string, { version?: string; optional?: boolean }>;
}

const readLock = (file: string): Lock | undefined =>
  fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Lock) : undefined;

/**
 * Why admin/ needs `npm ci`, or undefined when it does not: npm's record of what it installed
 * (node_modules/.package-lock.json) must hold every package the lockfile asks for (optional ones,
 * such as other platforms' binaries, may be absent) at the lockfile's version.
 */
export function adminInstallNeeded(adminDir: string): string | undefined {
  const wanted = readLock(path.join(adminDir, "package-lock.json"))?.packages ?? {};
  const installed = readLock(path.join(adminDir, "node_modules", ".package-lock.json"))?.packages;
  if (!installed) return "admin/node_modules is not installed";
  for (const [name, entry] of Object.entries(wanted)) {
    if (!name) continue; // the package itself
    const found = installed[name];
    if (!found && !entry.optional) return `${name} is missing`;
    if (found && found.version !== entry.version)
      return `${name} is ${found.version}, the lockfile asks for ${entry.version}`;
  }
  return undefined;
}

if (require.main === module) {
  const adminDir = path.resolve(__dirname, "../admin");
  const reason = adminInstallNeeded(adminDir);
  if (reason) {
    console.log(`Installing the editing studio's packages (npm ci --prefix admin): ${reason}`);
    const result = spawnSync("npm", ["ci", "--prefix", adminDir, "--no-audit", "--no-fund"], { stdio: "inherit" });
    process.exit(result.status ?? 1);
  }
}
