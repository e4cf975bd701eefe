/**
 * Checks on Gatsby's list of plugins (`store.getState().flattenedPlugins`, which Gatsby documents
 * as private), made when the build starts:
 *
 * - Gatsby recognised this plugin's `replaceHydrateFunction` as one of its browser APIs: a Gatsby
 *   without that API only logs an error about an unknown export, never calls it, and pages would
 *   hydrate in one long task.
 * - No plugin after this one implements onPostBuild (the site's own gatsby-node.ts comes last of
 *   all): the precompressed copies are made last, from the files as every other step left them, or
 *   a server would send stale .gz/.br copies of files changed after them.
 */
import { BrokenAssumption, INTERNALS, PLUGIN, internalChanged } from "./internals";

interface PluginEntry {
  name: string;
  nodeAPIs: string[];
  browserAPIs: string[];
}

const isEntry = (plugin: unknown): plugin is PluginEntry => {
  const entry = plugin as Partial<PluginEntry> | null;
  return typeof entry?.name === "string" && Array.isArray(entry.nodeAPIs) && Array.isArray(entry.browserAPIs);
};

export function checkPluginList(flattenedPlugins: unknown, self = PLUGIN): void {
  if (!Array.isArray(flattenedPlugins) || !flattenedPlugins.every(isEntry)) {
    throw internalChanged(
      INTERNALS.pluginList,
      "store.getState().flattenedPlugins is not a list of { name, nodeAPIs, browserAPIs }",
    );
  }
  const index = flattenedPlugins.findIndex((plugin) => plugin.name === self);
  const plugin = flattenedPlugins[index];
  if (!plugin) throw internalChanged(INTERNALS.pluginList, `store.getState().flattenedPlugins does not list ${self}`);
  if (!plugin.browserAPIs.includes("replaceHydrateFunction")) {
    throw internalChanged(
      INTERNALS.replaceHydrateFunction,
      `Gatsby does not count replaceHydrateFunction among ${self}'s browser APIs (it found: ${plugin.browserAPIs.join(", ") || "none"}): it no longer knows that browser API, or no longer finds gatsby-browser.ts`,
    );
  }
  const later = flattenedPlugins.slice(index + 1).filter((other) => other.nodeAPIs.includes("onPostBuild"));
  if (later.length > 0) {
    const site = later.some((other) => other.name === "default-site-plugin");
    const plugins = later.filter((other) => other.name !== "default-site-plugin").map((other) => other.name);
    const names = [...plugins, ...(site ? ["the site's gatsby-node.ts"] : [])].join(" and ");
    const fixes = [
      ...(plugins.length > 0 ? [`List ${self} after ${plugins.join(" and ")} in gatsby-config.ts.`] : []),
      ...(site
        ? [
            `Move the site's post-build work into ${self}'s onPostBuild, before precompression: the site's gatsby-node.ts always runs after every plugin.`,
          ]
        : []),
    ];
    throw new BrokenAssumption(
      "precompression must be the last post-build step",
      `${names} ${later.length === 1 ? "implements onPostBuild and runs" : "implement onPostBuild and run"} after ${self}, so the .gz/.br copies could miss ${later.length === 1 ? "its" : "their"} changes`,
      fixes.join(" "),
    );
  }
}
