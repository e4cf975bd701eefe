/**
 * gatsby-plugin-cyrus-performance: the site's speed work after Gatsby has done its own (README.md).
 * It removes Gatsby's scripts from every page (src/script-free.ts, called from the site's
 * gatsby-ssr.tsx) and checks after the build that none is left, stopping the build when Gatsby
 * writes them somewhere else, instead of publishing pages that load its whole runtime again; then
 * leaves out of public/ the bundles no page loads, so that they are not deployed.
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

/**
 * The check that no built page loads Gatsby's runtime, only its islands, then the removal of
 * Gatsby's bundles, which no page loads, from public/ (src/post-build.ts).
 */
export const onPostBuild: GatsbyNode["onPostBuild"] = ({ reporter }) => postBuild(reporter);
