/**
 * @jest-environment node
 *
 * The plugin hands the YAML files to gatsby-transformer-yaml itself: the nodes are the transformer's
 * (its type names, made in its name, so Gatsby's record of node types' owners is as before), from the
 * text the plugin chooses.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  TRANSFORMER,
  loadYamlTransformer,
  runTransformer,
  type TransformArgs,
} from "../../plugins/gatsby-plugin-cyrus-content/src/transformer";

const root = path.resolve(__dirname, "../..");

function args(text: string) {
  const createNode = jest.fn();
  const createParentChildLink = jest.fn();
  const node = {
    id: "file-1",
    absolutePath: "/site/data/services/a.yaml",
    dir: "/site/data/services",
    name: "a",
    internal: { type: "File", mediaType: "text/yaml" },
  };
  const transformArgs: TransformArgs = {
    node,
    loadNodeContent: async () => text,
    actions: { createNode, createParentChildLink },
    createNodeId: (id) => `id(${id})`,
    createContentDigest: () => "digest",
  };
  return { transformArgs, createNode, createParentChildLink };
}

test("gatsby-transformer-yaml's gatsby-node.js is as the plugin expects", () => {
  const transformer = loadYamlTransformer(root);
  expect(transformer.shouldOnCreateNode({ node: { internal: { mediaType: "text/yaml" } } })).toBe(true);
  expect(transformer.shouldOnCreateNode({ node: { internal: { mediaType: "image/jpeg" } } })).toBe(false);
  const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-no-modules-"));
  try {
    expect(() => loadYamlTransformer(elsewhere)).toThrow(
      /gatsby-transformer-yaml's `gatsby-node.js` \(checked on Gatsby 5\.16\.1\) has changed: it cannot be loaded/,
    );
  } finally {
    fs.rmSync(elsewhere, { recursive: true });
  }
});

test("the transformer's own node, typed after the folder, made in the transformer's name", async () => {
  const { transformArgs, createNode, createParentChildLink } = args("slug: a\ntitle: A\n");
  await runTransformer(loadYamlTransformer(root), transformArgs, {});
  expect(createNode).toHaveBeenCalledTimes(1);
  expect(createNode).toHaveBeenCalledWith(
    expect.objectContaining({
      slug: "a",
      title: "A",
      parent: "file-1",
      internal: expect.objectContaining({ type: "ServicesYaml" }),
    }),
    TRANSFORMER,
  );
  expect(TRANSFORMER).toEqual({ name: "gatsby-transformer-yaml" });
  expect(createParentChildLink).toHaveBeenCalledTimes(1);
});

test("given a text, the transformer reads that instead of the file", async () => {
  const { transformArgs, createNode } = args("slug: a\ntitel: broken\n");
  await runTransformer(loadYamlTransformer(root), transformArgs, {}, "slug: a\ntitle: Last good\n");
  expect(createNode.mock.calls[0]?.[0]).toMatchObject({ title: "Last good" });
});

test("resolves once Gatsby has the nodes: the promise createNode answers (the node in its datastore)", async () => {
  const { transformArgs, createNode } = args("slug: a\ntitle: A\n");
  let stored: () => void = () => undefined;
  createNode.mockReturnValue(new Promise<void>((resolve) => (stored = resolve)));
  let done = false;
  const running = runTransformer(loadYamlTransformer(root), transformArgs, {}).then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  expect(createNode).toHaveBeenCalledTimes(1);
  expect(done).toBe(false);
  stored();
  await running;
  expect(done).toBe(true);
});
