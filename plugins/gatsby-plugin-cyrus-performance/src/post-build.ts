import path from "node:path";
import { checkIslandsOnly } from "./islands-only";
import { stopOnBrokenAssumption } from "./internals";

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

/** The plugin's check of the built site: no page loads anything of Gatsby's runtime, only islands. */
export function postBuild(reporter: PostBuildReporter, { publicDir, siteStaticDir }: Folders = siteFolders()): void {
  stopOnBrokenAssumption(reporter, () => {
    const { pages, withIslands } = checkIslandsOnly(publicDir, siteStaticDir);
    reporter.info(
      `No page loads Gatsby's runtime: ${pages - withIslands} of ${pages} pages run no script, ${withIslands} only their islands`,
    );
  });
}
