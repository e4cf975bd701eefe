import type { GatsbyNode } from "gatsby";

interface ResolveData {
  request: string;
  dependencies: Array<{ request: string }>;
}
export const PUNYCODE_PACKAGE = "punycode/";
function usePunycodePackage(data: ResolveData): void {
  data.request = PUNYCODE_PACKAGE;
  for (const dependency of data.dependencies) dependency.request = PUNYCODE_PACKAGE;
}

/**
 * The site's change to Gatsby's webpack config (the browser bundle's belong to
 * plugins/gatsby-plugin-cyrus-performance): the HTML renderer bundles node-fetch, whose URL parser
 * requires Node's `punycode` module, deprecated since Node 21 (a warning Gatsby reports as "ERROR
 * UNKNOWN"): the same code from the punycode package instead. Gatsby's externals go by the
 * dependency's own request, so that is replaced too, or the built-in would still be required.
 */
export const onCreateWebpackConfig: GatsbyNode["onCreateWebpackConfig"] = ({ stage, actions, plugins }) => {
  if (stage !== "build-html" && stage !== "develop-html") return;
  actions.setWebpackConfig({ plugins: [plugins.normalModuleReplacement(/^punycode$/, usePunycodePackage)] });
};
