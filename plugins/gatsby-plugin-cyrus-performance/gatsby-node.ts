/**
 * gatsby-plugin-cyrus-performance: the site's speed work after Gatsby has done its own (README.md).
 * Each hook checks the Gatsby and webpack internals it relies on and stops the build when one has
 * changed, instead of publishing the site without the optimisation.
 */
import type { GatsbyNode } from "gatsby";
import { stopOnBrokenAssumption } from "./src/internals";
import { checkPluginList } from "./src/plugin-list";
import { postBuild } from "./src/post-build";
import { optimiseBrowserBundle } from "./src/webpack";

/** Before anything is built: Gatsby counts replaceHydrateFunction as ours (src/plugin-list.ts). */
export const onPreBootstrap: GatsbyNode["onPreBootstrap"] = ({ store, reporter }) => {
  stopOnBrokenAssumption(reporter, () =>
    checkPluginList((store.getState() as { flattenedPlugins?: unknown }).flattenedPlugins),
  );
};

/** The production browser bundle: no source maps, each page's own CSS only (src/webpack.ts). */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, getConfig, actions, reporter }) => {
  if (stage !== "build-javascript") return;
  const config = stopOnBrokenAssumption(reporter, () => optimiseBrowserBundle(getConfig()));
  if (config) actions.replaceWebpackConfig(config);
};

/** Loader, compile hints, then the checks of what hydration relies on (src/post-build.ts). */
export const onPostBuild: GatsbyNode["onPostBuild"] = ({ reporter }) => postBuild(reporter);
