import type { GatsbyNode } from "gatsby";
import { buildInbox } from "./src/node/inbox-build";
import { buildIslands } from "./src/node/islands";
import { createPages as createServicePages } from "./src/node/create-pages";
import { explainRootRedirect } from "./src/node/root-redirect";
import { createSchemaCustomization as customizeSchema } from "./src/node/schema";
import { onCreateWebpackConfig as configureWebpack } from "./src/node/webpack";

// The content check of data/ (validate.ts) is plugins/gatsby-plugin-cyrus-content's: it stops a build
// in onPreInit, before Gatsby's own work, and reports live during `gatsby develop`.
export const createSchemaCustomization = customizeSchema;
export const createPages = createServicePages;
export const onCreateWebpackConfig = configureWebpack;
export const onPostBootstrap = explainRootRedirect;
// The islands before the pages are rendered, whose HTML names them (gatsby-ssr.tsx). `gatsby
// develop` runs no onPreBuild: it hydrates every page with Gatsby's runtime instead.
export const onPreBuild: GatsbyNode["onPreBuild"] = async ({ reporter }) => {
  const manifest = await buildIslands();
  reporter.info(`Islands: ${Object.values(manifest).join(", ")}`);
  const inbox = await buildInbox();
  reporter.info(`Inbox: ${inbox.script}, ${inbox.style}`);
};
// The check after the build that no page loads Gatsby's runtime, is
// plugins/gatsby-plugin-cyrus-performance's onPostBuild, which must stay the last one: no
// onPostBuild here (the plugin stops the build if one appears).
