import type { GatsbyNode } from "gatsby";

interface ChunkModule {
  type: string;
}
type ModuleTest = (module: ChunkModule, ...rest: unknown[]) => boolean;
interface CacheGroup {
  test?: ModuleTest | RegExp | string;
}

interface ResolveData {
  request: string;
  dependencies: Array<{ request: string }>;
}
export const PUNYCODE_PACKAGE = "punycode/";
function usePunycodePackage(data: ResolveData): void {
  data.request = PUNYCODE_PACKAGE;
  for (const dependency of data.dependencies) dependency.request = PUNYCODE_PACKAGE;
}

/** CSS as mini-css-extract hands it to the chunk splitter. */
const isCss = (module: ChunkModule) => module.type === "css/mini-extract";

/**
 * Changes to Gatsby's webpack config for the browser bundle of the production build:
 *
 * - No source maps: Gatsby's default writes a .js.map beside every bundle in public/, which visitors
 *   never need and which costs build time. The HTML renderer, never published, keeps its maps.
 * - Each page inlines only its own CSS. Gatsby forces every stylesheet of the site into one `styles`
 *   chunk and inlines all of it into every page. Without that group (and with CSS kept out of the
 *   `commons` group too), a page component's CSS chunk holds exactly the CSS its components import:
 *   the global stylesheet (imported first by the layout, so it comes first) and the CSS Modules of
 *   what it renders, in import order, and Gatsby inlines that one file. On a client-side
 *   navigation webpack's CSS runtime adds the next page's file before React renders the page.
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions, getConfig, plugins }) => {
  if (stage === "build-html" || stage === "develop-html") {
    // The HTML renderer bundles node-fetch, whose URL parser requires Node's `punycode` module,
    // deprecated since Node 21 (a warning Gatsby reports as "ERROR UNKNOWN"): the same code from
    // the punycode package instead. Gatsby's externals go by the dependency's own request, so
    // that is replaced too, or the built-in would still be required.
    actions.setWebpackConfig({ plugins: [plugins.normalModuleReplacement(/^punycode$/, usePunycodePackage)] });
    return;
  }
  if (stage !== "build-javascript") return;
  const config = getConfig();
  config.devtool = false;
  const groups: Record<string, CacheGroup | false> | undefined = config.optimization?.splitChunks?.cacheGroups;
  if (groups) {
    groups.styles = false;
    // Gatsby's `commons` group has no test of its own (it goes by chunk count); a function one is kept.
    const commons = groups.commons;
    if (commons && (commons.test === undefined || typeof commons.test === "function")) {
      const test = commons.test;
      commons.test = (module, ...rest) => !isCss(module) && (test === undefined || test(module, ...rest));
    }
  }
  actions.replaceWebpackConfig(config);
};
