/**
 * @jest-environment node
 *
 * The production browser bundle's webpack config: no source maps, no site-wide styles chunk, no
 * CSS in commons; a config whose cache groups are not as Gatsby 5.16.1 makes them stops the build.
 */
import { onCreateWebpackConfig } from "../gatsby-node";
import { optimiseBrowserBundle } from "../src/webpack";

const cssModule = { type: "css/mini-extract" };
const jsModule = { type: "javascript/auto" };
// The parts of Gatsby's build-javascript config the plugin changes (node_modules/gatsby/dist/utils/webpack.config.js).
const gatsbyConfig = () => ({
  devtool: "source-map" as unknown,
  optimization: {
    splitChunks: {
      cacheGroups: {
        default: false,
        styles: {
          name: "styles",
          test: (m: { type: string }) => m.type === "css/mini-extract",
          priority: 40,
          enforce: true,
        } as Record<string, unknown>,
        commons: { name: "commons", minChunks: 9, priority: 20 } as Record<string, unknown>,
        framework: { name: "framework", test: /react/ },
      } as Record<string, unknown>,
    },
  },
});
type Groups = Record<
  string,
  { test: (module: { type: string }) => boolean; minChunks?: number } | false | { test: RegExp }
>;

function run(stage: string, config: object = gatsbyConfig()) {
  const replaceWebpackConfig = jest.fn();
  const setWebpackConfig = jest.fn();
  const panicOnBuild = jest.fn();
  (onCreateWebpackConfig as (args: unknown) => void)({
    stage,
    getConfig: () => config,
    actions: { replaceWebpackConfig, setWebpackConfig },
    reporter: { panicOnBuild },
  });
  return { replaceWebpackConfig, setWebpackConfig, panicOnBuild, config };
}
const groupsOf = (replaceWebpackConfig: jest.Mock) =>
  replaceWebpackConfig.mock.calls[0][0].optimization.splitChunks.cacheGroups as Groups;

test("has no source maps", () => {
  const { replaceWebpackConfig } = run("build-javascript");
  expect(replaceWebpackConfig).toHaveBeenCalledTimes(1);
  expect(replaceWebpackConfig.mock.calls[0][0].devtool).toBe(false);
});

test("keeps CSS in the page chunks that import it: no site-wide styles chunk, no CSS in commons", () => {
  const groups = groupsOf(run("build-javascript").replaceWebpackConfig);
  expect(groups.styles).toBe(false);
  const commons = groups.commons as { test: (m: { type: string }) => boolean; minChunks: number };
  expect(commons.test(cssModule)).toBe(false);
  expect(commons.test(jsModule)).toBe(true);
  expect(commons.minChunks).toBe(9);
  expect((groups.framework as { test: RegExp }).test).toEqual(/react/);
});

test("a test of Gatsby's own on the commons group still decides for JavaScript", () => {
  const config = gatsbyConfig();
  Object.assign(config.optimization.splitChunks.cacheGroups.commons as object, {
    test: (m: { type: string }) => m.type === "javascript/esm",
  });
  const commons = groupsOf(run("build-javascript", config).replaceWebpackConfig).commons as {
    test: (m: { type: string }) => boolean;
  };
  expect(commons.test(jsModule)).toBe(false);
  expect(commons.test({ type: "javascript/esm" })).toBe(true);
  expect(commons.test(cssModule)).toBe(false);
});

test("no other stage is changed (the site's gatsby-node.ts handles the HTML renderer)", () => {
  for (const stage of ["develop", "develop-html", "build-html", "build-javascript-server"]) {
    const { replaceWebpackConfig, setWebpackConfig, panicOnBuild, config } = run(stage);
    expect([replaceWebpackConfig, setWebpackConfig, panicOnBuild].map((f) => f.mock.calls.length)).toEqual([0, 0, 0]);
    expect(config).toMatchObject({
      devtool: "source-map",
      optimization: { splitChunks: { cacheGroups: { styles: { name: "styles" } } } },
    });
  }
});

describe("a config not as Gatsby 5.16.1 makes it stops the build", () => {
  const without = (change: (groups: Record<string, unknown>) => void) => {
    const config = gatsbyConfig();
    change(config.optimization.splitChunks.cacheGroups);
    return config;
  };

  test.each([
    [
      "no cacheGroups",
      { optimization: { splitChunks: {} } },
      /the config has no optimization\.splitChunks\.cacheGroups/,
    ],
    ["no splitChunks", { optimization: {} }, /the config has no optimization\.splitChunks\.cacheGroups/],
    ["no styles group", without((g) => delete g.styles), /has no `styles` group with a test function/],
    ["a styles group already off", without((g) => (g.styles = false)), /has no `styles` group with a test function/],
    ["no commons group", without((g) => delete g.commons), /has no `commons` group/],
    [
      "a commons group tested by a RegExp",
      without((g) => Object.assign(g.commons as object, { test: /node_modules/ })),
      /the `commons` group's test is a RegExp/,
    ],
  ])("%s", (_case, config, message) => {
    expect(() => optimiseBrowserBundle(config as never)).toThrow(message);
    expect(() => optimiseBrowserBundle(config as never)).toThrow(
      /The `styles` and `commons` cache groups of Gatsby's build-javascript config \(checked on Gatsby 5\.16\.1\) has changed/,
    );
    const { replaceWebpackConfig, panicOnBuild } = run("build-javascript", config);
    expect(replaceWebpackConfig).not.toHaveBeenCalled();
    expect(panicOnBuild).toHaveBeenCalledWith(expect.stringMatching(message));
  });

  test("a styles group that no longer takes mini-css-extract's module type", () => {
    const config = without((g) =>
      Object.assign(g.styles as object, { test: (m: { type: string }) => m.type === "css/extract" }),
    );
    expect(() => optimiseBrowserBundle(config)).toThrow(
      /mini-css-extract's module type `css\/mini-extract` \(checked on Gatsby 5\.16\.1\) has changed: the `styles` cache group does not take the modules of type "css\/mini-extract"/,
    );
    expect(run("build-javascript", config).panicOnBuild).toHaveBeenCalledTimes(1);
  });
});
