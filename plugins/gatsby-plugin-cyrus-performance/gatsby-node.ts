/**
 * gatsby-plugin-cyrus-performance: the site's speed work after Gatsby has done its own (README.md).
 * Each hook checks the Gatsby and webpack internals it relies on and stops the build when one has
 * changed, instead of publishing the site without the optimisation.
 */
import type { GatsbyNode } from "gatsby";
import { stopOnBrokenAssumption } from "./src/internals";
import { checkPluginList } from "./src/plugin-list";
import { postBuild } from "./src/post-build";

/** Before anything is built: Gatsby counts replaceHydrateFunction as ours (src/plugin-list.ts). */
export const onPreBootstrap: GatsbyNode["onPreBootstrap"] = ({ store, reporter }) => {
  stopOnBrokenAssumption(reporter, () =>
    checkPluginList((store.getState() as { flattenedPlugins?: unknown }).flattenedPlugins),
  );
};

/**
 * The production browser bundle without source maps: Gatsby's default writes a .js.map beside every
 * bundle in public/, which visitors never need and which costs build time. (The HTML renderer, never
 * published, keeps its maps.)
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions }) => {
  if (stage === "build-javascript") actions.setWebpackConfig({ devtool: false });
};

/** Loader, compile hints, then the checks of what hydration relies on (src/post-build.ts). */
export const onPostBuild: GatsbyNode["onPostBuild"] = ({ reporter }) => postBuild(reporter);
