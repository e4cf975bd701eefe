import path from "node:path";
import { addCompileHints, readStats } from "./compile-hints";
import { checkHydrationInternals } from "./hydration-check";
import { stopOnBrokenAssumption } from "./internals";
import { builtPages } from "./pages";
import { precompress } from "./precompress";
import { loadScriptsAfterPaint } from "./scripts-after-paint";

export interface PostBuildReporter {
  info(message: string): unknown;
  panicOnBuild(message: string): unknown;
}

export interface Folders {
  publicDir: string;
  /** Where precompress records what its copies were made from. */
  cacheFile: string;
  /** The site's static/ folder, whose files Gatsby copies into public/ as they are. */
  siteStaticDir: string;
}

export const siteFolders = (): Folders => ({
  publicDir: path.resolve("public"),
  cacheFile: path.resolve(".cache/precompressed.json"),
  siteStaticDir: path.resolve("static"),
});

/**
 * The plugin's work on the built site, in this order: the first scripts after paint in every page,
 * the compile hint on the scripts pages load first, the check of what hydration relies on, and
 * last the precompressed copies, which must hold the files as the other steps left them. A broken
 * assumption stops the build before anything is precompressed.
 */
export async function postBuild(
  reporter: PostBuildReporter,
  { publicDir, cacheFile, siteStaticDir }: Folders = siteFolders(),
): Promise<void> {
  const checked = stopOnBrokenAssumption(reporter, () => {
    const paint = loadScriptsAfterPaint(publicDir, siteStaticDir);
    reporter.info(`Scripts load after the first paint in ${paint.pages} pages (${paint.rewritten} rewritten now)`);
    const stats = readStats(publicDir);
    const hints = addCompileHints(publicDir, stats);
    reporter.info(`Compile hint on the ${hints.scripts} scripts pages load first (${hints.added} added now)`);
    checkHydrationInternals(publicDir, builtPages(publicDir, siteStaticDir), stats);
    return true;
  });
  if (!checked) return;
  const { files, compressed, removed, bytes } = await precompress(publicDir, cacheFile);
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  reporter.info(
    `Precompressed ${files} text files (${compressed} changed, ${removed} stale copies removed): ${kb(bytes.original)} -> ${kb(bytes.gzip)} gzip, ${kb(bytes.brotli)} brotli`,
  );
}
