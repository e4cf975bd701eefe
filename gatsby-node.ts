import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { formatProblems } from "./src/node/content/problems";
import { validateContent } from "./src/node/content/validate";
import { createPages as createServicePages } from "./src/node/create-pages";
import { createSchemaCustomization as customizeSchema } from "./src/node/schema";
import { onCreateWebpackConfig as configureWebpack } from "./src/node/webpack";

/** Editors' typos stop the build here, with file, line, entry and field, before Gatsby reads the data. */
export const onPreBootstrap: GatsbyNode["onPreBootstrap"] = ({ reporter }) => {
  const problems = validateContent(path.resolve("data"));
  if (problems.length > 0) reporter.panic(formatProblems(problems));
  reporter.info("Content in data/ matches its schemas");
};

export const createSchemaCustomization = customizeSchema;
export const createPages = createServicePages;
export const onCreateWebpackConfig = configureWebpack;
// The speed work after the build (first scripts after paint, compile hints, precompressed copies)
// is plugins/gatsby-plugin-cyrus-performance's onPostBuild, which must stay the last one: no
// onPostBuild here (the plugin stops the build if one appears).
