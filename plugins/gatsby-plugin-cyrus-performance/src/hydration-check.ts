/**
 * After the build, what the browser side relies on (src/hydrate.ts, and the browser tests): the
 * build cannot run browser code, so it reads what Gatsby built instead.
 *
 * - Every page holds Gatsby's `gatsby-focus-wrapper` element: src/hydrate.ts hydrates when it has
 *   server HTML in it and renders from scratch otherwise, as Gatsby's own default does.
 * - Gatsby's app (the `app` chunk group) asks plugins for `replaceHydrateFunction`, whose answer
 *   (src/hydrate.ts) then renders the page.
 */
import fs from "node:fs";
import path from "node:path";
import { type WebpackStats, chunkGroupScripts } from "./compile-hints";
import { INTERNALS, internalChanged } from "./internals";

const FOCUS_WRAPPER = /<[a-z]+\b[^>]*\bid="gatsby-focus-wrapper"/;
// apiRunner(`replaceHydrateFunction`, undefined, defaultRenderer), minified: a call whose first argument is the name.
const REPLACE_HYDRATE_CALL = /\(\s*["'`]replaceHydrateFunction["'`]\s*,/;

export function checkHydrationInternals(publicDir: string, pages: readonly string[], stats: WebpackStats): void {
  const relative = (file: string) => path.relative(path.dirname(publicDir), file);
  for (const page of pages) {
    if (!FOCUS_WRAPPER.test(fs.readFileSync(page, "utf8"))) {
      throw internalChanged(INTERNALS.focusWrapper, `${relative(page)} has no element with id="gatsby-focus-wrapper"`);
    }
  }
  const app = chunkGroupScripts(stats, "app");
  if (!app || app.length === 0)
    throw internalChanged(INTERNALS.stats, 'webpack.stats.json has no "app" chunk group with scripts');
  const code = app
    .map((name) => {
      const file = path.join(publicDir, name);
      if (!fs.existsSync(file))
        throw internalChanged(
          INTERNALS.stats,
          `webpack.stats.json names ${name}, which is not in ${path.basename(publicDir)}/`,
        );
      return fs.readFileSync(file, "utf8");
    })
    .join("\n");
  const where = `the app chunk group (${app.join(", ")})`;
  if (!REPLACE_HYDRATE_CALL.test(code)) {
    throw internalChanged(
      INTERNALS.replaceHydrateFunction,
      `${where} never calls the plugins' "replaceHydrateFunction"`,
    );
  }
}
