import type { GatsbyNode } from "gatsby";

/**
 * The browser bundle of the production build gets no source maps: Gatsby's default writes a .js.map
 * beside every bundle in public/, which visitors never need and which costs build time. The HTML
 * renderer, never published, keeps its maps for readable server-rendering errors.
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions }) => {
  if (stage !== "build-javascript") return;
  actions.setWebpackConfig({ devtool: false });
};
