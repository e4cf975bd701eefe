import fs from "node:fs";
import path from "node:path";

/** Files other content can refer to: YAML files, and images by their path. */
const TRACKED = /\.(ya?ml|jpe?g|png|webp|avif|gif|tiff?)$/i;
const YAML = /\.ya?ml$/i;

/** What the plugin reads of a File node (gatsby-source-filesystem's createFileNode). */
export interface FileNode {
  absolutePath?: unknown;
  modifiedTime?: unknown;
  internal?: { contentDigest?: unknown };
}

/**
 * The text the plugin last decided on for a YAML file (the transformer made its nodes of it, or the
 * file was held back at it), and the `modifiedTime` of the File node it came with.
 */
export interface Decided {
  text: string;
  modifiedTime: unknown;
  /** The File node's digest: a node made again at the same mtime (src/file-nodes.ts) is another node. */
  contentDigest?: unknown;
}

/**
 * The files under `dataDir` that Gatsby has not caught up with:
 * - a YAML file whose text on disk is not the one the plugin last decided on (`decided`, by its
 *   absolute path) for the File node Gatsby has of it now. A File node alone does not mean the nodes
 *   made from it are there: Gatsby calls onCreateNode after making the File node, and goes on without
 *   waiting for it. The decision does: it is recorded once the transformer's nodes are in Gatsby;
 * - an image without a File node: a path names the image by its File node.
 *
 * With `images: false`, only the YAML files: whether the nodes of every file Gatsby handed over are
 * in (Gatsby removes a File node's nodes when the file changes, and makes them again only in
 * onCreateNode, which it does not wait for).
 *
 * Files removed from disk are not waited for: a text that no longer refers to them can go ahead of
 * their removal. Folders named `schemas` are not content (gatsby-config.ts leaves them out of the File
 * nodes).
 */
export function filesBehind(
  dataDir: string,
  fileNodes: readonly FileNode[],
  decided: (abs: string) => Decided | undefined,
  { images = true }: { images?: boolean } = {},
): string[] {
  const known = new Map<string, FileNode>();
  for (const node of fileNodes) {
    if (typeof node.absolutePath === "string") known.set(path.resolve(node.absolutePath), node);
  }
  const behind: string[] = [];
  for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    const abs = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !TRACKED.test(entry.name) || abs.split(path.sep).includes("schemas")) continue;
    if (!YAML.test(entry.name)) {
      if (images && !known.has(abs)) behind.push(abs);
      continue;
    }
    const decision = decided(abs);
    let text: string;
    try {
      text = fs.readFileSync(abs, "utf8");
    } catch {
      continue; // removed meanwhile
    }
    const node = known.get(abs);
    const current =
      decision !== undefined &&
      node !== undefined &&
      decision.modifiedTime === node.modifiedTime &&
      decision.contentDigest === node.internal?.contentDigest &&
      decision.text === text;
    if (!current) behind.push(abs);
  }
  return behind;
}

/**
 * The YAML File nodes Gatsby has now whose nodes the plugin has not decided on (`decided`), from the
 * nodes alone: cheap enough for every query. What a query reads must agree with Gatsby's File nodes,
 * not with the disk, which may be ahead of both.
 */
export function fileNodesBehind(
  dataDir: string,
  fileNodes: readonly FileNode[],
  decided: (abs: string) => Decided | undefined,
): string[] {
  const behind: string[] = [];
  for (const node of fileNodes) {
    if (typeof node.absolutePath !== "string" || !YAML.test(node.absolutePath)) continue;
    const abs = path.resolve(node.absolutePath);
    const relative = path.relative(dataDir, abs);
    if (relative.startsWith("..") || relative.split(path.sep).includes("schemas")) continue;
    const decision = decided(abs);
    if (decision?.modifiedTime !== node.modifiedTime || decision?.contentDigest !== node.internal?.contentDigest)
      behind.push(abs);
  }
  return behind;
}
