/**
 * @jest-environment node
 *
 * The site's own change to Gatsby's webpack config: Node's deprecated punycode module replaced by
 * the punycode package in the HTML renderer (the browser bundle's changes are the performance
 * plugin's: plugins/gatsby-plugin-cyrus-performance/__tests__/webpack.test.ts).
 */
import { onCreateWebpackConfig } from "../../src/node/webpack";

const run = (stage: string) => {
  const replaceWebpackConfig = jest.fn();
  const setWebpackConfig = jest.fn();
  const normalModuleReplacement = jest.fn((pattern: RegExp, replacement: (data: unknown) => void) => ({
    pattern,
    replacement,
  }));
  (onCreateWebpackConfig as (args: unknown) => void)({
    stage,
    getConfig: () => ({ devtool: "source-map" }),
    actions: { replaceWebpackConfig, setWebpackConfig },
    plugins: { normalModuleReplacement },
  });
  return { replaceWebpackConfig, setWebpackConfig };
};

test("the HTML renderer takes the punycode package for Node's deprecated punycode module", () => {
  for (const stage of ["build-html", "develop-html"]) {
    const { replaceWebpackConfig, setWebpackConfig } = run(stage);
    expect(replaceWebpackConfig).not.toHaveBeenCalled();
    expect(setWebpackConfig).toHaveBeenCalledTimes(1);
    const [plugin] = setWebpackConfig.mock.calls[0][0].plugins;
    expect(plugin.pattern).toEqual(/^punycode$/);
    // Both the request and the dependency's own (which Gatsby's externals read) name the package.
    const data = { request: "punycode", dependencies: [{ request: "punycode" }] };
    plugin.replacement(data);
    expect(data).toEqual({ request: "punycode/", dependencies: [{ request: "punycode/" }] });
  }
});

test("no other stage is changed here", () => {
  for (const stage of ["develop", "build-javascript"]) {
    const { replaceWebpackConfig, setWebpackConfig } = run(stage);
    expect(replaceWebpackConfig).not.toHaveBeenCalled();
    expect(setWebpackConfig).not.toHaveBeenCalled();
  }
});
