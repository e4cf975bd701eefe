/**
 * @jest-environment node
 *
 * The production browser bundle's webpack config: no source maps, through Gatsby's documented
 * setWebpackConfig; no other stage is changed.
 */
import { onCreateWebpackConfig } from "../gatsby-node";

function run(stage: string) {
  const replaceWebpackConfig = jest.fn();
  const setWebpackConfig = jest.fn();
  (onCreateWebpackConfig as (args: unknown) => void)({
    stage,
    getConfig: () => ({ devtool: "source-map" }),
    actions: { replaceWebpackConfig, setWebpackConfig },
    reporter: { panicOnBuild: jest.fn() },
  });
  return { replaceWebpackConfig, setWebpackConfig };
}

test("has no source maps", () => {
  const { replaceWebpackConfig, setWebpackConfig } = run("build-javascript");
  expect(setWebpackConfig.mock.calls).toEqual([[{ devtool: false }]]);
  expect(replaceWebpackConfig).not.toHaveBeenCalled();
});

test("no other stage is changed (the site's gatsby-node.ts handles the HTML renderer)", () => {
  for (const stage of ["develop", "develop-html", "build-html", "build-javascript-server"]) {
    const { replaceWebpackConfig, setWebpackConfig } = run(stage);
    expect([replaceWebpackConfig, setWebpackConfig].map((f) => f.mock.calls.length)).toEqual([0, 0]);
  }
});
