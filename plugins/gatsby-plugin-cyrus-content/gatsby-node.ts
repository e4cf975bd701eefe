/**
 * gatsby-plugin-cyrus-content: the content check of data/ inside Gatsby. It stands in for
 * gatsby-transformer-yaml in gatsby-config.ts and hands it every YAML file, so the nodes are the
 * transformer's own.
 */
import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { contentReporter, type ContentReporter } from "./src/reporter";
import { checkAtStart } from "./src/start";
import { loadYamlTransformer, runTransformer, type TransformArgs, type YamlTransformer } from "./src/transformer";

let transformer: YamlTransformer | undefined;
const yaml = () => (transformer ??= loadYamlTransformer());

const reporterOf = (args: { reporter: unknown }) => contentReporter(args.reporter as ContentReporter);

/** Stops Gatsby with a message naming what changed in Gatsby (not the editor's mistake). */
const stop = (reporter: ContentReporter, error: unknown): never => {
  reporter.panic(error instanceof Error ? error.message : String(error));
  throw error;
};

/**
 * The first API Gatsby runs: before its cache, the clean-up of public/, the functions and the
 * schema. Problems in data/ stop the build (and the start of `gatsby develop`) here.
 */
export const onPreInit: GatsbyNode["onPreInit"] = (args) => {
  const reporter = reporterOf(args);
  try {
    yaml();
  } catch (error) {
    stop(reporter, error);
  }
  checkAtStart(reporter, path.join(process.cwd(), "data"));
};

export const shouldOnCreateNode: GatsbyNode["shouldOnCreateNode"] = (args, options) =>
  yaml().shouldOnCreateNode(args as Parameters<YamlTransformer["shouldOnCreateNode"]>[0], options);

/** The content passed in onPreInit: the transformer's own onCreateNode. */
export const onCreateNode: GatsbyNode["onCreateNode"] = (args, options) =>
  runTransformer(yaml(), args as unknown as TransformArgs, options);
