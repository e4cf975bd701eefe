import { INTERNALS, internalChanged } from "./internals";

interface ChunkModule {
  type: string;
}
type ModuleTest = (module: ChunkModule, ...rest: unknown[]) => boolean;
interface CacheGroup {
  test?: ModuleTest | RegExp | string;
}
export interface BrowserBundleConfig {
  devtool?: unknown;
  optimization?: { splitChunks?: false | { cacheGroups?: Record<string, unknown> } };
}

/** The type mini-css-extract-plugin gives CSS modules, which Gatsby's cache groups test for. */
export const CSS_MODULE_TYPE = "css/mini-extract";
const isCss = (module: ChunkModule) => module.type === CSS_MODULE_TYPE;

const isGroup = (group: unknown): group is CacheGroup => typeof group === "object" && group !== null;

/**
 * Changes to Gatsby's webpack config of the browser bundle in the production build (stage
 * build-javascript), in place:
 *
 * - No source maps: Gatsby's default writes a .js.map beside every bundle in public/, which visitors
 *   never need and which costs build time. The HTML renderer, never published, keeps its maps.
 * - Each page inlines only its own CSS. Gatsby forces every stylesheet of the site into one `styles`
 *   chunk and inlines all of it into every page. Without that group (and with CSS kept out of the
 *   `commons` group too), a page component's CSS chunk holds exactly the CSS its components import:
 *   the global stylesheet (imported first by the layout, so it comes first) and the CSS Modules of
 *   what it renders, in import order, and Gatsby inlines that one file. On a client-side
 *   navigation webpack's CSS runtime adds the next page's file before React renders the page.
 *
 * The build stops when Gatsby's config no longer has the two cache groups as expected.
 */
export function optimiseBrowserBundle<Config extends BrowserBundleConfig>(config: Config): Config {
  // Everything is checked before anything is changed.
  const splitChunks = config.optimization?.splitChunks;
  const groups = splitChunks ? splitChunks.cacheGroups : undefined;
  if (!isGroup(groups))
    throw internalChanged(INTERNALS.cacheGroups, "the config has no optimization.splitChunks.cacheGroups");
  const { styles, commons } = groups;
  if (!isGroup(styles) || typeof styles.test !== "function") {
    throw internalChanged(
      INTERNALS.cacheGroups,
      "optimization.splitChunks.cacheGroups has no `styles` group with a test function",
    );
  }
  // Gatsby's styles group takes exactly the modules of mini-css-extract's type.
  if (styles.test({ type: CSS_MODULE_TYPE }) !== true || styles.test({ type: "javascript/auto" }) !== false) {
    throw internalChanged(
      INTERNALS.cssModuleType,
      `the \`styles\` cache group does not take the modules of type "${CSS_MODULE_TYPE}" (and only those)`,
    );
  }
  if (!isGroup(commons))
    throw internalChanged(INTERNALS.cacheGroups, "optimization.splitChunks.cacheGroups has no `commons` group");
  // Gatsby's `commons` group has no test of its own (it goes by chunk count); a function one is kept.
  const test = commons.test;
  if (test !== undefined && typeof test !== "function") {
    throw internalChanged(
      INTERNALS.cacheGroups,
      `the \`commons\` group's test is a ${test instanceof RegExp ? "RegExp" : typeof test}, not a function or nothing`,
    );
  }

  config.devtool = false;
  groups.styles = false;
  commons.test = (module, ...rest) => !isCss(module) && (test === undefined || test(module, ...rest));
  return config;
}
