/**
 * Gatsby's File nodes of data/, kept in step with the files on disk during `gatsby develop`.
 *
 * gatsby-source-filesystem's watcher can miss a save (README, "gatsby-source-filesystem's watcher"):
 * chokidar 3 drops a file's events that come within 5 ms of the one before, with no event after
 * them, and the File node's digest is cached by the file's mtime and inode. An editor's save is a
 * truncation and a write: when the watcher reads the file between the two, Gatsby keeps the empty
 * file (its nodes, its digest) and never hears of the write. The page then shows the old text (or
 * a new service never reaches the menu) until the file is saved again. The plugin's own watcher sees
 * the write; this module finds the File nodes whose digest is not the file's, and makes the node
 * gatsby-source-filesystem itself would make of the file now.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { INTERNALS, internalChanged, siteRequire } from "./internals";

/** The plugin whose nodes these are: File nodes are created in its name, as the transformer's are. */
export const FILESYSTEM = { name: "gatsby-source-filesystem" };

/** What the plugin reads of a File node (gatsby-source-filesystem's createFileNode). */
export interface SourceFileNode {
  id: string;
  absolutePath?: unknown;
  /** From the folder gatsby-source-filesystem was given (its `path` option). */
  relativePath?: unknown;
  sourceInstanceName?: unknown;
  internal?: { type?: string; contentDigest?: string };
}

type CreateFileNode = (
  file: string,
  createNodeId: (id: string) => string,
  options: { name?: unknown; path: string },
) => Promise<SourceFileNode>;

let createFileNode: CreateFileNode | undefined;

/** gatsby-source-filesystem's own createFileNode, from the site's root; throws, naming the internal. */
export function loadCreateFileNode(root?: string): CreateFileNode {
  if (createFileNode) return createFileNode;
  let module: { createFileNode?: unknown };
  try {
    module = siteRequire(root)("gatsby-source-filesystem/create-file-node") as { createFileNode?: unknown };
  } catch (error) {
    throw internalChanged(INTERNALS.fileNodes, `it cannot be loaded (${(error as Error).message})`);
  }
  if (typeof module.createFileNode !== "function") {
    throw internalChanged(INTERNALS.fileNodes, "it does not export createFileNode as a function");
  }
  return (createFileNode = module.createFileNode as CreateFileNode);
}

/** The digest gatsby-source-filesystem gives a file (gatsby-core-utils' md5File: MD5 of its bytes, hex). */
export const fileDigest = (abs: string): string => crypto.createHash("md5").update(fs.readFileSync(abs)).digest("hex");

/** The File nodes under `dataDir` whose digest is not that of their file on disk now (removed files aside). */
export function staleFileNodes(dataDir: string, nodes: readonly SourceFileNode[]): SourceFileNode[] {
  const inside = path.resolve(dataDir) + path.sep;
  return nodes.filter((node) => {
    if (node.internal?.type !== "File" || typeof node.absolutePath !== "string") return false;
    const abs = path.resolve(node.absolutePath);
    if (!abs.startsWith(inside)) return false;
    try {
      return fileDigest(abs) !== node.internal.contentDigest;
    } catch {
      return false; // removed: gatsby-source-filesystem's unlink deletes the node
    }
  });
}

/**
 * The node gatsby-source-filesystem makes of the file now, under the id of the node it replaces (ids
 * are the plugin's own, by path) and without its digest cache, which is what went stale.
 */
export async function currentFileNode(dataDir: string, node: SourceFileNode, root?: string): Promise<SourceFileNode> {
  const make = loadCreateFileNode(root);
  const abs = String(node.absolutePath);
  // The folder of gatsby-source-filesystem's `path` option, which its relative paths start from.
  const from =
    typeof node.relativePath === "string" && abs.endsWith(`/${node.relativePath}`)
      ? abs.slice(0, abs.length - node.relativePath.length - 1)
      : dataDir;
  return make(abs, () => node.id, { name: node.sourceInstanceName, path: from });
}

/** What a look needs of Gatsby: its File nodes, and createNode (kept from sourceNodes). */
export interface FileNodeSource {
  getNodesByType: (type: string) => unknown[];
  actions: { createNode: (node: unknown, plugin?: { name: string }) => unknown };
}

/**
 * Gives Gatsby, in gatsby-source-filesystem's name, the File node of each file under data/ whose node
 * does not hold the file's bytes: Gatsby then hands it over again (its YAML to onCreateNode, its image
 * to sharp) and runs the queries. One look at a time; a look asked for meanwhile runs after it, so a
 * stale node that lands after a look is caught by the next one (each node Gatsby hands over, each run
 * of the queries and each burst of changes asks for one).
 */
export class FileNodeSync {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly dataDir: string,
    private readonly root: string,
    private readonly warn: (text: string) => void,
  ) {}

  sync(source: FileNodeSource): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    const running = this.look(source)
      .catch((error: unknown) => this.warn(`The content check could not compare data/ with Gatsby: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
      });
    this.running = running;
    return running;
  }

  private async look(source: FileNodeSource): Promise<void> {
    do {
      this.again = false;
      for (const stale of staleFileNodes(this.dataDir, source.getNodesByType("File") as SourceFileNode[])) {
        const node = await currentFileNode(this.dataDir, stale, this.root);
        if (node.internal?.contentDigest === stale.internal?.contentDigest) continue;
        // Not awaited: Gatsby makes the node when its develop loop takes the change in.
        Promise.resolve(source.actions.createNode(node, FILESYSTEM)).catch((error: unknown) =>
          this.warn(`The content check could not give Gatsby ${String(node.absolutePath)}: ${String(error)}`),
        );
      }
    } while (this.again);
  }
}
