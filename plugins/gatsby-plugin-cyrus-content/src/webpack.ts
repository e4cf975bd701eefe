import path from "node:path";
import { INTERNALS, PLUGIN, internalChanged } from "./internals";

/** The browser entry of the overlay, from the site's root (Gatsby runs there). */
export const developClient = (root: string = process.cwd()): string =>
  path.join(root, "plugins", PLUGIN, "src", "develop-client.ts");

export interface DevelopBundleConfig {
  entry?: unknown;
}

const GATSBY_APP = /[\\/]\.cache[\\/]app(\.js)?$/;

/**
 * The develop bundle's config with the overlay client first in its `commons` entry, beside Gatsby's
 * app (first, so that it still runs when the app fails). Only for stage "develop": the production
 * bundle (build-javascript) never sees it. `setWebpackConfig` cannot do this (Gatsby drops `entry`
 * from what it merges), so the whole config is returned for `replaceWebpackConfig`. Throws, naming
 * the internal, when the entry is not as Gatsby 5.16.1 makes it.
 */
export function withDevelopClient<Config extends DevelopBundleConfig>(config: Config, client: string): Config {
  const entry = config.entry as Record<string, unknown> | undefined;
  if (!entry || typeof entry !== "object" || Array.isArray(entry)) {
    throw internalChanged(
      INTERNALS.developEntry,
      `the entry is ${JSON.stringify(entry)}, not an object of named entries`,
    );
  }
  const commons = entry.commons;
  if (!Array.isArray(commons) || !commons.some((file) => typeof file === "string" && GATSBY_APP.test(file))) {
    throw internalChanged(
      INTERNALS.developEntry,
      `entry.commons is ${JSON.stringify(commons)}, not a list holding Gatsby's .cache/app`,
    );
  }
  if (commons.includes(client)) return config;
  return { ...config, entry: { ...entry, commons: [client, ...commons] } };
}
