import fs from "node:fs";
import path from "node:path";
import { INTERNALS, internalChanged } from "./internals";

/*
 * Every function in the scripts a page loads first runs during its start (React's and Gatsby's
 * initialisation, then hydration). V8 compiles a function lazily, on the main thread, the first time
 * it runs; in traces of the built pages that compilation is a large part of the start-up's main-thread
 * work. The explicit compile hint below, as the first line of a script,
 * makes Chrome (136 and later; other browsers ignore a comment) compile the whole script eagerly while
 * it downloads, on a background thread: about 90 ms less script evaluation on the main thread of each
 * page load (docs/performance.md, measured with and without it). The hint goes only on scripts whose
 * code does run on load.
 */
export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";

/** The script with the hint as its first line; null when it has it already. */
export function withCompileHint(source: string): string | null {
  return source.startsWith(COMPILE_HINT) ? null : COMPILE_HINT + source;
}

export interface WebpackStats {
  namedChunkGroups?: Record<string, { assets: ReadonlyArray<string | { name: string }> }>;
}

/**
 * Gatsby's public/webpack.stats.json; the build stops when it is missing or has no named chunk
 * groups (written by Gatsby's GatsbyWebpackStatsExtractor once the browser bundle is built).
 */
export function readStats(publicDir = path.resolve("public")): WebpackStats {
  const file = path.join(publicDir, "webpack.stats.json");
  if (!fs.existsSync(file))
    throw internalChanged(INTERNALS.stats, `${path.basename(publicDir)}/webpack.stats.json is missing after the build`);
  let stats: unknown;
  try {
    stats = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw internalChanged(
      INTERNALS.stats,
      `${path.basename(publicDir)}/webpack.stats.json is not JSON (${String(error)})`,
    );
  }
  const groups = (stats as WebpackStats | null)?.namedChunkGroups;
  if (typeof groups !== "object" || groups === null) {
    throw internalChanged(
      INTERNALS.stats,
      `${path.basename(publicDir)}/webpack.stats.json has no namedChunkGroups object`,
    );
  }
  return stats as WebpackStats;
}

/**
 * The JavaScript files of one of webpack's named chunk groups ("app", or a page component's
 * "component---…" in Gatsby's build); null when the build has no such group. The benchmark
 * (tools/bench/bench.ts) uses it too.
 */
export function chunkGroupScripts(stats: WebpackStats, group: string): string[] | null {
  const assets = stats.namedChunkGroups?.[group]?.assets;
  if (!assets) return null;
  return assets.map((asset) => (typeof asset === "string" ? asset : asset.name)).filter((name) => name.endsWith(".js"));
}

/**
 * The scripts pages load first: the app chunk group and the page components' chunk groups. The
 * build stops when there is no `app` group or no `component---…` group with scripts.
 */
export function scriptsLoadedFirst(stats: WebpackStats): string[] {
  const groups = Object.keys(stats.namedChunkGroups ?? {});
  const components = groups.filter((group) => group.startsWith("component---"));
  const app = chunkGroupScripts(stats, "app");
  if (!app || app.length === 0)
    throw internalChanged(
      INTERNALS.stats,
      `webpack.stats.json has no "app" chunk group with scripts (groups: ${groups.join(", ") || "none"})`,
    );
  if (components.length === 0)
    throw internalChanged(INTERNALS.stats, `webpack.stats.json has no "component---…" chunk group of a page component`);
  const scripts = [...app, ...components.flatMap((group) => chunkGroupScripts(stats, group) ?? [])];
  return [...new Set(scripts)].sort();
}

/**
 * Adds the hint to the scripts in public/ (after the build; again after a rebuild is harmless). The
 * build stops when webpack.stats.json names a script that is not in public/.
 */
export function addCompileHints(
  publicDir = path.resolve("public"),
  stats = readStats(publicDir),
): { scripts: number; added: number } {
  const files = scriptsLoadedFirst(stats);
  let added = 0;
  for (const name of files) {
    const file = path.join(publicDir, name);
    if (!fs.existsSync(file))
      throw internalChanged(
        INTERNALS.stats,
        `webpack.stats.json names ${name}, which is not in ${path.basename(publicDir)}/`,
      );
    const hinted = withCompileHint(fs.readFileSync(file, "utf8"));
    if (hinted === null) continue;
    fs.writeFileSync(file, hinted);
    added += 1;
  }
  return { scripts: files.length, added };
}
