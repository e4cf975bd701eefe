import fs from "node:fs";
import path from "node:path";

/** Files other content can refer to: YAML files, and images by their path. */
const TRACKED = /\.(ya?ml|jpe?g|png|webp|avif|gif|tiff?)$/i;

/** What the plugin reads of a File node (gatsby-source-filesystem's createFileNode). */
export interface FileNode {
  absolutePath?: unknown;
  modifiedTime?: unknown;
}

/**
 * The files under `dataDir` that Gatsby has not caught up with: on disk, but without a File node of
 * the same modification time (`modifiedTime` is the file's mtime as JSON). Files removed from disk
 * are not waited for: a text that no longer refers to them can go ahead of their removal. Folders
 * named `schemas` are not content (gatsby-config.ts leaves them out of the File nodes).
 */
export function filesBehind(dataDir: string, fileNodes: readonly FileNode[]): string[] {
  const known = new Map<string, unknown>();
  for (const node of fileNodes) {
    if (typeof node.absolutePath === "string") known.set(path.resolve(node.absolutePath), node.modifiedTime);
  }
  const behind: string[] = [];
  for (const entry of fs.readdirSync(dataDir, { recursive: true, withFileTypes: true })) {
    const abs = path.join(entry.parentPath, entry.name);
    if (!entry.isFile() || !TRACKED.test(entry.name) || abs.split(path.sep).includes("schemas")) continue;
    let mtime: string;
    try {
      mtime = fs.statSync(abs).mtime.toJSON();
    } catch {
      continue; // removed meanwhile
    }
    if (known.get(abs) !== mtime) behind.push(abs);
  }
  return behind;
}

/**
 * Waits (polling, at most `timeout` ms) until Gatsby has File nodes for the files under `dataDir` as
 * they are on disk. A held file read again before Gatsby has the nodes of the file that put it right
 * (a service the dropdown names, an image) would make a query fail for a moment. Answers whether it
 * caught up; after the timeout the caller goes ahead anyway.
 */
export async function gatsbyCaughtUp(
  dataDir: string,
  fileNodes: () => readonly FileNode[],
  { interval = 200, timeout = 10_000 } = {},
): Promise<boolean> {
  const end = Date.now() + timeout;
  while (filesBehind(dataDir, fileNodes()).length > 0) {
    if (Date.now() >= end) return false;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
  return true;
}
