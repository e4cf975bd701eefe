/**
 * Builds the production site unless public/ was built from the sources as they are now, so test
 * commands can be run on a fresh clone and again without a second build (CI shares one build between
 * its suites).
 *
 * "As they are now" is a digest of the sources' contents, recorded after each build (`npm run build`'s
 * postbuild, or a build this tool starts): modification times alone said "changed" whenever a test
 * wrote a file into data/ or src/ and took it out again, and CI rebuilt the site before each of its
 * suites. A public/ with no record (built by `gatsby build` itself) falls back to the times.
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const defaultRoot = path.resolve(__dirname, "..");
// Everything the build reads: a change to any of them makes public/ out of date. (tools/ and
// deploy/ are not read by the build.)
const SOURCES = [
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
/** Not sources: written by the build itself (graphqlTypegen), or a plugin's tests, which it never reads. */
const skipped = (name: string) => name === "gatsby-types.d.ts" || name === "__tests__";

const markerOf = (root: string) => path.join(root, "public", "index.html");
/** In .cache/, not public/: nothing of it is for visitors. */
const recordOf = (root: string) => path.join(root, ".cache", "cyrus-built-from.json");

function files(target: string, out: string[] = []): string[] {
  if (!fs.existsSync(target)) return out;
  if (!fs.statSync(target).isDirectory()) {
    out.push(target);
    return out;
  }
  for (const entry of fs.readdirSync(target).sort()) if (!skipped(entry)) files(path.join(target, entry), out);
  return out;
}

/**
 * What the build's output depends on: each source file's path and content, the build-time settings
 * Gatsby inlines (GATSBY_*), the site's address and Node's major version.
 */
export function sourcesDigest(root: string, env: NodeJS.ProcessEnv = process.env): string {
  const hash = createHash("sha256");
  for (const file of SOURCES.flatMap((source) => files(path.join(root, source)))) {
    hash.update(`${path.relative(root, file)}\0`);
    hash.update(createHash("sha256").update(fs.readFileSync(file)).digest());
  }
  const settings = Object.keys(env)
    .filter((name) => name.startsWith("GATSBY_") && name !== "GATSBY_TELEMETRY_DISABLED")
    .sort()
    .map((name) => `${name}=${env[name]}`);
  settings.push(`SITE_URL=${env.SITE_URL ?? ""}`, `node=${process.versions.node.split(".")[0]}`);
  hash.update(settings.join("\0"));
  return hash.digest("hex");
}

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0;
  const stat = fs.statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(target))
    if (!skipped(entry)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Why public/ must be built again, or undefined when it was built from the sources as they are. */
export function staleReason(root: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const marker = markerOf(root);
  if (!fs.existsSync(marker)) return "public/ holds no build";
  const record = recordOf(root);
  if (fs.existsSync(record)) {
    const { digest } = JSON.parse(fs.readFileSync(record, "utf8")) as { digest?: string };
    return digest === sourcesDigest(root, env) ? undefined : "the sources changed since public/ was built";
  }
  const changed = Math.max(...SOURCES.map((source) => newestMtime(path.join(root, source))));
  return fs.statSync(marker).mtimeMs > changed ? undefined : "a source is newer than public/";
}

/** Records that public/ is a build of the sources as they are now. */
export function recordBuild(root: string, env: NodeJS.ProcessEnv = process.env): void {
  fs.mkdirSync(path.dirname(recordOf(root)), { recursive: true });
  fs.writeFileSync(recordOf(root), `${JSON.stringify({ digest: sourcesDigest(root, env) })}\n`);
}

if (require.main === module) {
  if (process.argv.includes("--record")) {
    recordBuild(defaultRoot);
  } else if (process.argv.includes("--forget")) {
    // Before a build: one that fails half-way must not leave public/ looking like a whole one.
    fs.rmSync(recordOf(defaultRoot), { force: true });
  } else {
    const reason = staleReason(defaultRoot);
    if (!reason) {
      console.log("public/ is up to date: not rebuilding");
    } else {
      console.log(`Building the production site (gatsby build): ${reason}…`);
      fs.rmSync(recordOf(defaultRoot), { force: true });
      const result = spawnSync("npx", ["gatsby", "build"], {
        cwd: defaultRoot,
        stdio: "inherit",
        env: { ...process.env, GATSBY_TELEMETRY_DISABLED: "1" },
      });
      if (result.status === 0) recordBuild(defaultRoot);
      process.exit(result.status ?? 1);
    }
  }
}
