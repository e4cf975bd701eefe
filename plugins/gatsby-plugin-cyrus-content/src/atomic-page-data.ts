/**
 * `gatsby develop` writes each page's page-data.json in place (truncate, then write) while its server
 * reads the same file for the browser: a read in between gets part of the JSON, and the terminal
 * shows "ERROR UNKNOWN … Unexpected end of JSON input" for that page (README, "Gatsby's page-data
 * writes"). A change under data/ rewrites many pages' data at once, so an editor met it now and then.
 * Here the write goes to a file beside it that is renamed over it: a reader gets the old data or the
 * new, never half of it.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { INTERNALS, internalChanged, siteRequire } from "./internals";

type EnsureFileContent = (file: string, data: string) => Promise<boolean>;

/** Gatsby's `ensureFileContent`, with the new content written beside the file and renamed over it. */
export const ensureFileContentAtomically: EnsureFileContent = async (file, data) => {
  const previous = await fs.readFile(file, "utf8").catch(() => undefined);
  if (previous === data) return false;
  await fs.mkdir(path.dirname(file), { recursive: true });
  const next = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await fs.writeFile(next, data);
    await fs.rename(next, file);
  } catch (error) {
    await fs.rm(next, { force: true });
    throw error;
  }
  return true;
};

/** Puts it in place of Gatsby's own, for the page-data writes of this process. */
export function writePageDataAtomically(root?: string): void {
  let module: { ensureFileContent?: unknown };
  try {
    module = siteRequire(root)("gatsby/dist/utils/ensure-file-content") as { ensureFileContent?: unknown };
  } catch (error) {
    throw internalChanged(INTERNALS.pageData, `it cannot be loaded (${(error as Error).message})`);
  }
  if (typeof module.ensureFileContent !== "function") {
    throw internalChanged(INTERNALS.pageData, "it does not export ensureFileContent as a function");
  }
  module.ensureFileContent = ensureFileContentAtomically;
}
