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

/**
 * Gatsby's bundle of the enquiry Function takes in pg (the PostgreSQL client of the enquiry store),
 * whose optional native binding, pg-native, is not installed: webpack warns that it cannot resolve it.
 * pg uses it only when asked for `pg.native`, which the store never does.
 */
export const PG_NATIVE_WARNING = /Can't resolve 'pg-native'/;

export const PG_NATIVE_EXPLAINED =
  "The warning above about pg-native is expected: it is an optional part of pg, the PostgreSQL client of " +
  "the enquiry store, which uses pg's own JavaScript client instead. There is nothing to do.";

/**
 * The template of the pages in data/pages/ has a page query; Gatsby warns about a query in a file that
 * no page uses, which is the case in a production build while every such page is still being written
 * (`inProgress`), or none exists: the page query is then simply not needed.
 */
export const ADDED_PAGE_TEMPLATE_WARNING =
  /^The GraphQL query in the non-page component ".*\/src\/templates\/added-page\.tsx" will not be run\./;

export const ADDED_PAGE_TEMPLATE_EXPLAINED =
  "The warning above about src/templates/added-page.tsx is expected: no page of data/pages/ is built now " +
  "(there is none, or each is still being written, inProgress: true, which only npm run develop shows), " +
  "so its template is not used. There is nothing to do.";

/** Each warning that must stay, and the line printed right after it. */
const EXPECTED: Array<{ matches: (text: string) => boolean; explanation: string }> = [
  { matches: (text) => text.startsWith(NO_NODES_WARNING), explanation: NO_NODES_EXPLAINED },
  { matches: (text) => PG_NATIVE_WARNING.test(text), explanation: PG_NATIVE_EXPLAINED },
  { matches: (text) => ADDED_PAGE_TEMPLATE_WARNING.test(text), explanation: ADDED_PAGE_TEMPLATE_EXPLAINED },
];

const WRAPPED = Symbol.for(`${PLUGIN}/explains-warnings`);

/**
 * Makes `reporter` (Gatsby's singleton, through which Gatsby prints those warnings) print each one's
 * explanation right after it. Once per reporter.
 */
export function explainExpectedWarnings(reporter: Pick<ContentReporter, "warn" | "info">): void {
  const marked = reporter as typeof reporter & { [WRAPPED]?: true };
  if (marked[WRAPPED]) return;
  marked[WRAPPED] = true;
  const warn = reporter.warn.bind(reporter);
  reporter.warn = (text: string) => {
    const printed = warn(text);
    const expected = typeof text === "string" ? EXPECTED.find((e) => e.matches(text)) : undefined;
    if (expected) reporter.info(expected.explanation);
    return printed;
  };
}
