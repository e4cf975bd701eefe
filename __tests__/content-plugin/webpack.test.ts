/**
 * @jest-environment node
 *
 * The overlay's client goes into the develop bundle's `commons` entry, and nowhere else: the
 * production bundle's config is never touched. An entry not as Gatsby 5.16.1 makes it stops develop.
 */
import fs from "node:fs";
import path from "node:path";
import { onCreateWebpackConfig } from "../../plugins/gatsby-plugin-cyrus-content/gatsby-node";
import { developClient, withDevelopClient } from "../../plugins/gatsby-plugin-cyrus-content/src/webpack";

const app = "/site/.cache/app";
const client = "/site/plugins/gatsby-plugin-cyrus-content/src/develop-client.ts";

test("the client comes first in commons, before Gatsby's app; the rest of the config is kept", () => {
  const config = { entry: { commons: [app], polyfill: "/site/.cache/polyfill-entry" }, mode: "development" };
  expect(withDevelopClient(config, client)).toEqual({
    entry: { commons: [client, app], polyfill: "/site/.cache/polyfill-entry" },
    mode: "development",
  });
  expect(config.entry.commons).toEqual([app]);
});

test("added once", () => {
  const config = withDevelopClient({ entry: { commons: [app] } }, client);
  expect(withDevelopClient(config, client).entry).toEqual({ commons: [client, app] });
});

test.each([
  ["no entry", {}],
  ["a single entry", { entry: app }],
  ["no commons list", { entry: { app: [app] } }],
  ["a commons without Gatsby's app", { entry: { commons: ["/site/src/other.js"] } }],
])("%s: develop stops, naming the internal", (_, config) => {
  expect(() => withDevelopClient(config, client)).toThrow(
    /gatsby-plugin-cyrus-content: The `commons` entry of the develop bundle \(checked on Gatsby 5\.16\.1\) has changed/,
  );
});

test("the client's file is where the plugin's source is", () => {
  expect(developClient("/site")).toBe(path.join("/site", client.slice("/site".length)));
  expect(fs.existsSync(developClient(path.resolve(__dirname, "../..")))).toBe(true);
});

test("only stage develop: the production bundle (build-javascript) and the HTML renderers are left alone", () => {
  const replaceWebpackConfig = jest.fn();
  const hook = onCreateWebpackConfig as unknown as (args: unknown) => void;
  for (const stage of ["build-javascript", "build-html", "develop-html"]) {
    hook({ stage, getConfig: () => ({ entry: { commons: [app] } }), actions: { replaceWebpackConfig } });
  }
  expect(replaceWebpackConfig).not.toHaveBeenCalled();
  hook({ stage: "develop", getConfig: () => ({ entry: { commons: [app] } }), actions: { replaceWebpackConfig } });
  expect(replaceWebpackConfig).toHaveBeenCalledWith({ entry: { commons: [developClient(), app] } });
});
