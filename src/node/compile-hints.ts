import fs from "node:fs";
import path from "node:path";
import type { Reporter } from "gatsby";

/*
 * Every function in the scripts a page loads first runs during its start (React's and Gatsby's
 * initialisation, then hydration). V8 compiles a function lazily, on the main thread, the first time
 * it runs; in traces of the built pages that compilation was most of the start-up's long tasks (the
 * blocking time Lighthouse counts). The explicit compile hint below, as the first line of a script,
 * makes Chrome (136 and later; other browsers ignore a comment) compile the whole script eagerly while
 * it downloads, on a background thread. Mobile TBT on /services/quality-assurance went from 63-98 ms
 * to 16-31 ms with it (three runs each). The hint goes only on scripts whose code does run on load.
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
 * The JavaScript files of one of webpack's named chunk groups ("app", or a page component's
 * "component---…" in Gatsby's build); null when the build has no such group. The benchmark uses it too.
 */
export function chunkGroupScripts(stats: WebpackStats, group: string): string[] | null {
  const assets = stats.namedChunkGroups?.[group]?.assets;
  if (!assets) return null;
  return assets.map((asset) => (typeof asset === "string" ? asset : asset.name)).filter((name) => name.endsWith(".js"));
}

/** The scripts pages load first: the app chunk group and the page components' chunk groups. */
export function scriptsLoadedFirst(stats: WebpackStats): string[] {
  const groups = Object.keys(stats.namedChunkGroups ?? {}).filter((group) => group === "app" || group.startsWith("component---"));
  return [...new Set(groups.flatMap((group) => chunkGroupScripts(stats, group) ?? []))].sort();
}

/** Adds the hint to the scripts in public/ (after the build; again after a rebuild is harmless). */
export function addCompileHints(reporter: Reporter, publicDir = path.resolve("public")): void {
  const statsFile = path.join(publicDir, "webpack.stats.json");
  if (!fs.existsSync(statsFile)) {
    reporter.warn("compile-hints: public/webpack.stats.json is missing; scripts keep V8's lazy compilation");
    return;
  }
  const files = scriptsLoadedFirst(JSON.parse(fs.readFileSync(statsFile, "utf8")) as WebpackStats);
  let added = 0;
  for (const name of files) {
    const file = path.join(publicDir, name);
    if (!fs.existsSync(file)) continue;
    const hinted = withCompileHint(fs.readFileSync(file, "utf8"));
    if (hinted === null) continue;
    fs.writeFileSync(file, hinted);
    added += 1;
  }
  reporter.info(`Compile hint on the ${files.length} scripts pages load first (${added} added now)`);
}
