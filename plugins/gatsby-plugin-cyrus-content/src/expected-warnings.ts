/**
 * Gatsby warns "The gatsby-plugin-cyrus-content plugin has generated no Gatsby nodes" on every run:
 * it warns about each plugin that implements sourceNodes and owns no node type
 * (gatsby/dist/utils/source-nodes.js). This plugin's nodes are made in gatsby-transformer-yaml's name
 * (src/transformer.ts), and it needs sourceNodes in develop (its cache, and the actions its watcher
 * gives File nodes with: src/file-nodes.ts); onPreBootstrap's, tried instead, left develop's pages
 * without a service while a file was held back. So the warning stays, and the line after it says so.
 */
import { PLUGIN } from "./internals";
import type { ContentReporter } from "./reporter";

/** The start of Gatsby's warning about this plugin. */
export const NO_NODES_WARNING = `The ${PLUGIN} plugin has generated no Gatsby nodes`;

export const NO_NODES_EXPLAINED =
  `The warning above about ${PLUGIN} is expected: the content's nodes (ServicesYaml, SiteYaml, ...) ` +
  "are made by it in gatsby-transformer-yaml's name, so Gatsby counts none as its own. There is nothing to do.";

const WRAPPED = Symbol.for(`${PLUGIN}/explains-warnings`);

/**
 * Makes `reporter` (Gatsby's singleton, through which Gatsby prints that warning) print
 * NO_NODES_EXPLAINED right after it. Once per reporter.
 */
export function explainExpectedWarnings(reporter: Pick<ContentReporter, "warn" | "info">): void {
  const marked = reporter as typeof reporter & { [WRAPPED]?: true };
  if (marked[WRAPPED]) return;
  marked[WRAPPED] = true;
  const warn = reporter.warn.bind(reporter);
  reporter.warn = (text: string) => {
    const printed = warn(text);
    if (typeof text === "string" && text.startsWith(NO_NODES_WARNING)) reporter.info(NO_NODES_EXPLAINED);
    return printed;
  };
}
