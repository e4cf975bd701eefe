/**
 * gatsby-plugin-cyrus-performance: the site's speed work after Gatsby has done its own (README.md).
 * The post-build steps check the Gatsby and webpack internals they rely on and stop the build when
 * one has changed, instead of publishing the site without the optimisation.
 */
import type { GatsbyNode } from "gatsby";
import { postBuild } from "./src/post-build";

/**
 * The production browser bundle without source maps: Gatsby's default writes a .js.map beside every
 * bundle in public/, which visitors never need and which costs build time. (The HTML renderer, never
 * published, keeps its maps.)
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions }) => {
  if (stage === "build-javascript") actions.setWebpackConfig({ devtool: false });
};

/** The loader of the first scripts, then the compile hints (src/post-build.ts). */
export const onPostBuild: GatsbyNode["onPostBuild"] = ({ reporter }) => postBuild(reporter);
