import path from "node:path";
import { addCompileHints } from "./compile-hints";
import { stopOnBrokenAssumption } from "./internals";
import { loadScriptsAfterPaint } from "./scripts-after-paint";

export interface PostBuildReporter {
  info(message: string): unknown;
  panicOnBuild(message: string): unknown;
}

export interface Folders {
  publicDir: string;
  /** The site's static/ folder, whose files Gatsby copies into public/ as they are. */
  siteStaticDir: string;
}

export const siteFolders = (): Folders => ({
  publicDir: path.resolve("public"),
  siteStaticDir: path.resolve("static"),
});

/**
 * The plugin's work on the built site, in this order: the first scripts after paint in every page,
 * then the compile hint on the scripts pages load first. A broken assumption stops the build at the
 * step that meets it.
 */
export function postBuild(reporter: PostBuildReporter, { publicDir, siteStaticDir }: Folders = siteFolders()): void {
  stopOnBrokenAssumption(reporter, () => {
    const paint = loadScriptsAfterPaint(publicDir, siteStaticDir);
    reporter.info(
      `Scripts load after the first paint in ${paint.pages - paint.scriptFree} pages (${paint.rewritten} rewritten now); ${paint.scriptFree} pages need no script and have none`,
    );
    const hints = addCompileHints(publicDir);
    reporter.info(`Compile hint on the ${hints.scripts} scripts pages load first (${hints.added} added now)`);
  });
}
