/*
 * Gatsby's public/webpack.stats.json, as the benchmark (tools/bench/bench.ts) reads it to count the
 * JavaScript of Gatsby's runtime. The build no longer uses it: no page loads that runtime (the compile
 * hints this module once put on it went with it, docs/performance.md). Left for the benchmark's
 * figures of Gatsby's runtime; remove it once the benchmark counts the islands instead.
 */

export interface WebpackStats {
  namedChunkGroups?: Record<string, { assets: ReadonlyArray<string | { name: string }> }>;
}

/**
 * The JavaScript files of one of webpack's named chunk groups ("app", or a page component's
 * "component---…" in Gatsby's build); null when the build has no such group.
 */
export function chunkGroupScripts(stats: WebpackStats, group: string): string[] | null {
  const assets = stats.namedChunkGroups?.[group]?.assets;
  if (!assets) return null;
  return assets.map((asset) => (typeof asset === "string" ? asset : asset.name)).filter((name) => name.endsWith(".js"));
}
