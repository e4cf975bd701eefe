import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { formatProblems } from "./src/node/content/problems";
import { validateContent } from "./src/node/content/validate";
import { createPages as createServicePages } from "./src/node/create-pages";
import { createSchemaCustomization as customizeSchema } from "./src/node/schema";
import { addCompileHints } from "./src/node/compile-hints";
import { loadScriptsAfterPaint } from "./src/node/scripts-after-paint";
import { precompress } from "./src/node/precompress";
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
export const onPostBuild: GatsbyNode["onPostBuild"] = async ({ reporter }) => {
  loadScriptsAfterPaint(reporter);
  addCompileHints(reporter);
  // Last: the copies must hold the files as the steps above left them.
  const { files, compressed, removed, bytes } = await precompress(path.resolve("public"), path.resolve(".cache/precompressed.json"));
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
  reporter.info(
    `Precompressed ${files} text files (${compressed} changed, ${removed} stale copies removed): ${kb(bytes.original)} -> ${kb(bytes.gzip)} gzip, ${kb(bytes.brotli)} brotli`,
  );
};
