/**
 * @jest-environment node
 *
 * Gatsby's plugin list, checked when the build starts: the plugin's replaceHydrateFunction is
 * registered; otherwise the build stops.
 */
import { onPreBootstrap } from "../gatsby-node";
import { checkPluginList } from "../src/plugin-list";

describe("Gatsby's plugin list", () => {
  const plugin = (name: string, nodeAPIs: string[] = [], browserAPIs: string[] = []) => ({
    name,
    nodeAPIs,
    browserAPIs,
    resolve: `/site/${name}`,
  });
  const list = (...extra: ReturnType<typeof plugin>[]) => [
    plugin("internal-data-bridge", ["sourceNodes"]),
    plugin("gatsby-plugin-sitemap", ["onPostBuild"]),
    plugin(
      "gatsby-plugin-cyrus-performance",
      ["onPreBootstrap", "onCreateWebpackConfig", "onPostBuild"],
      ["replaceHydrateFunction"],
    ),
    plugin("gatsby-plugin-typescript", ["onCreateBabelConfig"]),
    ...extra,
    plugin("default-site-plugin", ["onPreBootstrap", "createPages"]),
    plugin("partytown", ["onPreBootstrap"], ["wrapRootElement"]),
  ];

  test("as the site has it passes: replaceHydrateFunction registered", () => {
    expect(() => checkPluginList(list())).not.toThrow();
  });

  test("without replaceHydrateFunction among the plugin's browser APIs stops the build", () => {
    const plugins = list();
    plugins.find((p) => p.name === "gatsby-plugin-cyrus-performance")!.browserAPIs = [];
    expect(() => checkPluginList(plugins)).toThrow(
      /The `replaceHydrateFunction` browser API .*has changed: Gatsby does not count replaceHydrateFunction among gatsby-plugin-cyrus-performance.s browser APIs.*it no longer knows that browser API/,
    );
  });

  test("a plugin list not as Gatsby keeps it stops the build", () => {
    expect(() => checkPluginList(undefined)).toThrow(
      /Gatsby's plugin list in its internal store \(`flattenedPlugins`\) .*has changed: store\.getState\(\)\.flattenedPlugins is not a list/,
    );
    expect(() => checkPluginList([{ name: "x", nodeAPIs: [] }])).toThrow(/is not a list of \{ name, browserAPIs \}/);
    expect(() => checkPluginList(list().filter((p) => p.name !== "gatsby-plugin-cyrus-performance"))).toThrow(
      /does not list gatsby-plugin-cyrus-performance/,
    );
  });

  test("onPreBootstrap reads it from Gatsby's store and stops the build through panicOnBuild", () => {
    const panicOnBuild = jest.fn();
    const call = (flattenedPlugins: unknown) =>
      (onPreBootstrap as (args: unknown) => void)({
        store: { getState: () => ({ flattenedPlugins }) },
        reporter: { panicOnBuild },
      });
    call(list());
    expect(panicOnBuild).not.toHaveBeenCalled();
    const plugins = list();
    plugins.find((p) => p.name === "gatsby-plugin-cyrus-performance")!.browserAPIs = [];
    call(plugins);
    expect(panicOnBuild).toHaveBeenCalledWith(
      expect.stringMatching(/^gatsby-plugin-cyrus-performance: The `replaceHydrateFunction` browser API/),
    );
  });
});
