import path from "node:path";
import { checkIslandsOnly } from "./islands-only";
import { stopOnBrokenAssumption } from "./internals";
import { removeUnusedBundles } from "./unused-bundles";

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
 * The plugin's work on the built site: the check that no page loads anything of Gatsby's runtime,
 * only islands; then, as none does, Gatsby's bundles leave public/ (src/unused-bundles.ts).
 */
export function postBuild(reporter: PostBuildReporter, { publicDir, siteStaticDir }: Folders = siteFolders()): void {
  stopOnBrokenAssumption(reporter, () => {
    const { pages, withIslands } = checkIslandsOnly(publicDir, siteStaticDir);
    reporter.info(
      `No page loads Gatsby's runtime: ${pages - withIslands} of ${pages} pages run no script, ${withIslands} only their islands`,
    );
    const { files, bytes } = removeUnusedBundles(publicDir, siteStaticDir);
    reporter.info(
      `Gatsby's browser bundles, which no page loads, left public/: ${files} files, ${(bytes / 1024).toFixed(1)} KB`,
    );
  });
}
