/**
 * What the plugin assumes about Gatsby and gatsby-transformer-yaml beyond their documented APIs.
 * README.md ("Gatsby internals") describes each one: where Gatsby 5.16.1 defines it, what the plugin
 * does with it, and what happens when it changes. A unit test checks that the README names every
 * entry below.
 */
import { createRequire } from "node:module";
import path from "node:path";

export const PLUGIN = "gatsby-plugin-cyrus-content";
/** The Gatsby version whose sources the internals below were read from. */
export const GATSBY_CHECKED = "5.16.1";

export interface Internal {
  /** The heading of its entry in README.md. */
  name: string;
  /** What to do when it changed. */
  fix: string;
}

const adapt = (module: string) =>
  `Read how the installed Gatsby does it now and adapt ${module} of the plugin (and its README entry).`;

export const INTERNALS = {
  reporter: {
    name: "Gatsby's reporter singleton `gatsby-cli/lib/reporter`",
    fix: adapt("src/reporter.ts"),
  },
  command: {
    name: "`process.env.gatsby_executing_command`",
    fix: adapt("gatsby-node.ts"),
  },
  transformer: {
    name: "gatsby-transformer-yaml's `gatsby-node.js`",
    fix: adapt("src/transformer.ts"),
  },
  developEntry: {
    name: "The `commons` entry of the develop bundle",
    fix: adapt("src/webpack.ts"),
  },
  fileNodes: {
    name: "gatsby-source-filesystem's watcher and `create-file-node`",
    fix: adapt("src/file-nodes.ts"),
  },
  pageData: {
    name: "Gatsby's page-data writes",
    fix: adapt("src/atomic-page-data.ts"),
  },
  nodeChanges: {
    name: "Node changes and the queries in `gatsby develop`",
    fix: adapt("src/develop-session.ts"),
  },
  initOrder: {
    name: "`onPreInit` comes before Gatsby's own work",
    fix: adapt("gatsby-node.ts"),
  },
  compression: {
    name: "The develop server compresses responses",
    fix: adapt("src/problems-feed.ts"),
  },
} satisfies Record<string, Internal>;

/** The plugin cannot work as it should with the installed Gatsby: `gatsby develop` or the build stops. */
export function internalChanged(internal: Internal, found: string): Error {
  return new Error(
    `${PLUGIN}: ${internal.name} (checked on Gatsby ${GATSBY_CHECKED}) has changed: ${found}. ${internal.fix} (plugins/${PLUGIN}/README.md explains each one.)`,
  );
}

/**
 * Node's own require, anchored at the site's root. Gatsby compiles gatsby-node.ts with Parcel, whose
 * `require.resolve` inside the bundle does not resolve paths; this one does, in Gatsby and in Jest.
 */
export const siteRequire = (root: string = process.cwd()): NodeJS.Require =>
  createRequire(path.join(root, "package.json"));
