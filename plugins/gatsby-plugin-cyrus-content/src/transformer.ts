/**
 * gatsby-transformer-yaml, which this plugin stands in for in gatsby-config.ts: its own
 * shouldOnCreateNode and onCreateNode make the nodes (ServicesYaml, SiteYaml, ...), so they are
 * exactly what the transformer makes; the plugin only chooses the text it is given.
 */
import { INTERNALS, internalChanged, siteRequire } from "./internals";

/** The plugin whose nodes these are, in Gatsby's eyes too. */
export const TRANSFORMER = { name: "gatsby-transformer-yaml" };

export interface YamlFileNode {
  id: string;
  absolutePath: string;
  internal: { type: string; mediaType?: string; contentDigest?: string };
  [field: string]: unknown;
}

/**
 * What the transformer reads of onCreateNode's arguments (gatsby-transformer-yaml 5.16.0); the
 * others Gatsby passes are handed on too.
 */
export interface TransformArgs {
  node: YamlFileNode;
  loadNodeContent: (node: YamlFileNode) => Promise<string>;
  actions: { createNode: (node: unknown, plugin?: { name: string }) => unknown; createParentChildLink: unknown };
  createNodeId: (id: string) => string;
  createContentDigest: (input: unknown) => string;
  /** Gatsby's node by its id, as it is now (every Node API has it). */
  getNode?: (id: string) => YamlFileNode | undefined;
}

export interface YamlTransformer {
  shouldOnCreateNode(args: { node: { internal: { mediaType?: string } } }, options?: unknown): boolean;
  onCreateNode(args: TransformArgs, options?: unknown): Promise<void>;
}

/** Loads gatsby-transformer-yaml's gatsby-node.js; throws, naming the internal, when it is not as expected. */
export function loadYamlTransformer(root?: string): YamlTransformer {
  let module: Partial<YamlTransformer>;
  try {
    module = siteRequire(root)("gatsby-transformer-yaml/gatsby-node") as Partial<YamlTransformer>;
  } catch (error) {
    throw internalChanged(INTERNALS.transformer, `it cannot be loaded (${(error as Error).message})`);
  }
  const missing = (["shouldOnCreateNode", "onCreateNode"] as const).filter(
    (name) => typeof module[name] !== "function",
  );
  if (missing.length > 0) {
    throw internalChanged(INTERNALS.transformer, `it does not export ${missing.join(" and ")} as a function`);
  }
  return module as YamlTransformer;
}

/**
 * The transformer's onCreateNode, given `text` as the file's content when there is one, its nodes made
 * in the transformer's name (createNode's `plugin` argument): Gatsby records which plugin owns each
 * node type, keeps that record in .cache, and refuses another plugin's nodes of those types, so
 * nodes owned by this plugin would stop the next run after switching between it and the plain
 * transformer until `gatsby clean`. Resolves once Gatsby has its nodes.
 */
export async function runTransformer(
  transformer: YamlTransformer,
  args: Omit<TransformArgs, "loadNodeContent"> & Partial<Pick<TransformArgs, "loadNodeContent">>,
  options: unknown,
  text?: string,
): Promise<void> {
  const { actions } = args;
  const loadNodeContent = text === undefined ? args.loadNodeContent : async () => text;
  if (!loadNodeContent) throw new Error("runTransformer: neither a text nor loadNodeContent");
  // Gatsby's createNode answers a promise that resolves once the node's own onCreateNode has run and
  // the node is in Gatsby's datastore (found by its type, too); the transformer does not wait for it.
  const made: unknown[] = [];
  await transformer.onCreateNode(
    {
      ...args,
      loadNodeContent,
      actions: {
        ...actions,
        createNode: (node: unknown) => {
          const result = actions.createNode(node, TRANSFORMER);
          made.push(result);
          return result;
        },
      },
    },
    options,
  );
  await Promise.all(made);
}
