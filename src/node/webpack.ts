import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { GatsbyNode } from "gatsby";

/**
 * React's legacy (non-streaming) server renderer for browsers. gatsby-plugin-image loads
 * `react-dom/server` in the browser, after hydration, to render images on client-side navigation,
 * and uses only `renderToStaticMarkup`; the package's browser entry also bundles the streaming
 * renderer, which doubles that chunk. Null when React's files are laid out differently (then the
 * alias is simply not set).
 */
function legacyBrowserServerRenderer(): string | null {
  try {
    // Resolved from the site (gatsby-node is bundled, so a plain require.resolve would not work).
    const siteRequire = createRequire(path.resolve("package.json"));
    const reactDom = path.dirname(siteRequire.resolve("react-dom/package.json"));
    const file = path.join(reactDom, "cjs", "react-dom-server-legacy.browser.production.min.js");
    return fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/**
 * The browser bundle of the production build: no source maps (Gatsby's default writes a .js.map
 * beside every bundle in public/, which visitors never need and which costs build time; the HTML
 * renderer, never published, keeps its maps for readable server-rendering errors), and the
 * smaller server renderer above.
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions, plugins }) => {
  if (stage !== "build-javascript") return;
  const legacy = legacyBrowserServerRenderer();
  actions.setWebpackConfig({
    devtool: false,
    // A replacement, not an alias: Gatsby's own alias of `react-dom` would match first.
    plugins: legacy ? [plugins.normalModuleReplacement(/^react-dom\/server$/, legacy)] : [],
  });
};
