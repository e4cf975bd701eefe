/**
 * gatsby-plugin-cyrus-content: the content check of data/ inside Gatsby (README.md). It stands in
 * for gatsby-transformer-yaml in gatsby-config.ts and hands it every YAML file, so the nodes are the
 * transformer's own; during `gatsby develop` it chooses the text the transformer gets.
 */
import path from "node:path";
import type { GatsbyNode } from "gatsby";
import { writePageDataAtomically } from "./src/atomic-page-data";
import { DevelopSession, type QueryArgs, type SourceArgs } from "./src/develop-session";
import { EVENTS_PATH, FEED_PATH } from "./src/endpoints";
import { explainExpectedWarnings } from "./src/expected-warnings";
import { INTERNALS, internalChanged } from "./src/internals";
import { contentQueryFields, waitingResolvers, type SchemaLike } from "./src/query-wait";
import { contentReporter, type ContentReporter } from "./src/reporter";
import { checkAtStart } from "./src/start";
import { loadYamlTransformer, runTransformer, type TransformArgs, type YamlTransformer } from "./src/transformer";
import { developClient, withDevelopClient } from "./src/webpack";

/** Set by gatsby-cli for the command it runs: "develop", "build", ... */
const isDevelop = () => process.env.gatsby_executing_command === "develop";

let transformer: YamlTransformer | undefined;
const yaml = () => (transformer ??= loadYamlTransformer());

/** Only in `gatsby develop`, once the check at start-up has passed. */
let session: DevelopSession | undefined;

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
  explainExpectedWarnings(reporter);
  const root = process.cwd();
  if (isDevelop()) {
    try {
      writePageDataAtomically(root);
    } catch (error) {
      reporter.warn(error instanceof Error ? error.message : String(error));
    }
  }
  const { problems, warnings } = checkAtStart(reporter, path.join(root, "data"));
  if (isDevelop() && problems.length === 0) {
    session = new DevelopSession(root, reporter, yaml());
    session.start([], true, warnings);
  }
};

export const shouldOnCreateNode: GatsbyNode["shouldOnCreateNode"] = (args, options) =>
  yaml().shouldOnCreateNode(args as Parameters<YamlTransformer["shouldOnCreateNode"]>[0], options);

/** A build delegates as it is (the content passed in onPreInit); develop chooses the text (src/last-good.ts). */
export const onCreateNode: GatsbyNode["onCreateNode"] = (args, options) => {
  const transformArgs = args as unknown as TransformArgs;
  if (session) return session.transform(transformArgs, options);
  return runTransformer(yaml(), transformArgs, options);
};

/** develop: Gatsby's plugin cache, where the files held back are kept between runs. */
export const sourceNodes: GatsbyNode["sourceNodes"] = async (args, options) => {
  await session?.attach(args as unknown as SourceArgs, options);
};

/**
 * develop: Gatsby runs onPreExtractQueries, and waits for it, each time it is about to run the queries
 * (after every batch of node changes): the held files another file put right are read again here,
 * once that file's nodes are in.
 */
export const onPreExtractQueries: GatsbyNode["onPreExtractQueries"] = async (args) => {
  await session?.beforeQueries(args as unknown as QueryArgs);
};

/** develop: a query's content waits for the hand-overs in progress (src/query-wait.ts). */
export const createResolvers: GatsbyNode["createResolvers"] = ({ createResolvers, intermediateSchema }) => {
  const current = session;
  if (!current) return;
  const fields = contentQueryFields(intermediateSchema as SchemaLike);
  createResolvers(waitingResolvers(fields, () => current.readyForQuery()));
};

/** develop: the problems for the overlay, as JSON and as a stream of server-sent events. */
export const onCreateDevServer: GatsbyNode["onCreateDevServer"] = (args) => {
  if (!isDevelop()) {
    stop(
      reporterOf(args),
      internalChanged(
        INTERNALS.command,
        `the develop server is starting while gatsby_executing_command is ${JSON.stringify(process.env.gatsby_executing_command)}`,
      ),
    );
  }
  if (!session) return;
  args.app.get(FEED_PATH, session.feed.json);
  args.app.get(EVENTS_PATH, session.feed.events);
};

/** develop: the overlay's client in the develop bundle; never in the production one. */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = (args) => {
  if (args.stage !== "develop") return;
  try {
    args.actions.replaceWebpackConfig(withDevelopClient(args.getConfig(), developClient()));
  } catch (error) {
    stop(reporterOf(args), error);
  }
};
