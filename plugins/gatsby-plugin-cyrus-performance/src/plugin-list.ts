/**
 * A check on Gatsby's list of plugins (`store.getState().flattenedPlugins`, which Gatsby documents
 * as private), made when the build starts: Gatsby recognised this plugin's `replaceHydrateFunction`
 * as one of its browser APIs. A Gatsby without that API, or one that no longer reads
 * gatsby-browser.ts, only logs an error about an unknown export (or nothing), never calls it, and
 * pages would hydrate in one long task.
 */
import { INTERNALS, PLUGIN, internalChanged } from "./internals";

interface PluginEntry {
  name: string;
  browserAPIs: string[];
}

const isEntry = (plugin: unknown): plugin is PluginEntry => {
  const entry = plugin as Partial<PluginEntry> | null;
  return typeof entry?.name === "string" && Array.isArray(entry.browserAPIs);
};

export function checkPluginList(flattenedPlugins: unknown, self = PLUGIN): void {
  if (!Array.isArray(flattenedPlugins) || !flattenedPlugins.every(isEntry)) {
    throw internalChanged(
      INTERNALS.pluginList,
      "store.getState().flattenedPlugins is not a list of { name, browserAPIs }",
    );
  }
  const plugin = flattenedPlugins.find((entry) => entry.name === self);
  if (!plugin) throw internalChanged(INTERNALS.pluginList, `store.getState().flattenedPlugins does not list ${self}`);
  if (!plugin.browserAPIs.includes("replaceHydrateFunction")) {
    throw internalChanged(
      INTERNALS.replaceHydrateFunction,
      `Gatsby does not count replaceHydrateFunction among ${self}'s browser APIs (it found: ${plugin.browserAPIs.join(", ") || "none"}): it no longer knows that browser API, or no longer finds gatsby-browser.ts`,
    );
  }
}
