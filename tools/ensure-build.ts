/**
 * Builds the production site unless public/ is newer than every source file, so test commands can
 * be run on a fresh clone and again without a second build.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "..");
const marker = path.join(root, "public", "index.html");
// Everything the build reads: a change to any of them makes public/ out of date. (tools/ and
// deploy/ are not read by the build.)
const sources = [
  "src",
  "data",
  "static",
  "plugins",
  "gatsby-config.ts",
  "gatsby-node.ts",
  "gatsby-ssr.tsx",
  "package.json",
  "package-lock.json",
];

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target)) {
    if (entry === "gatsby-types.d.ts") continue; // written by the build itself
    if (entry === "__tests__") continue; // a plugin's tests, which the build never reads
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const built = fs.existsSync(marker) ? fs.statSync(marker).mtimeMs : 0;
const changed = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (built > changed) {
  console.log("public/ is up to date: not rebuilding");
} else {
  console.log("Building the production site (gatsby build)…");
  const result = spawnSync("npx", ["gatsby", "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1" },
  });
  process.exit(result.status ?? 1);
}
