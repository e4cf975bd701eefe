/**
 * @jest-environment node
 *
 * Gatsby's File nodes of data/ kept in step with the files during `gatsby develop`: a node whose
 * digest is not its file's (gatsby-source-filesystem's watcher missed a save) is found, and made
 * again as gatsby-source-filesystem makes it, in its name. The develop test
 * (__tests__/site/content-check-develop.test.ts) shows the page following such a save.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DevelopSession, type SourceArgs } from "../../plugins/gatsby-plugin-cyrus-content/src/develop-session";
import {
  currentFileNode,
  FILESYSTEM,
  staleFileNodes,
  type SourceFileNode,
} from "../../plugins/gatsby-plugin-cyrus-content/src/file-nodes";
import type { ContentReporter } from "../../plugins/gatsby-plugin-cyrus-content/src/reporter";
import type { YamlTransformer } from "../../plugins/gatsby-plugin-cyrus-content/src/transformer";

const md5 = (text: string) => crypto.createHash("md5").update(text).digest("hex");

let root: string;
let dataDir: string;
const FILE = "services/a.yaml";
const abs = (file: string) => path.join(dataDir, file);
/** The File node Gatsby kept of `file`, made when it held `text`. */
const keptNode = (file: string, text: string): SourceFileNode => ({
  id: `file ${file}`,
  absolutePath: abs(file),
  relativePath: file,
  sourceInstanceName: "data",
  internal: { type: "File", contentDigest: md5(text) },
});

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-file-nodes-"));
  dataDir = path.join(root, "data");
  fs.mkdirSync(path.dirname(abs(FILE)), { recursive: true });
  fs.writeFileSync(abs(FILE), "title: Saved\n");
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test("a File node whose digest is not its file's is stale; one that is, a removed file and files elsewhere are not", () => {
  fs.writeFileSync(abs("services/b.yaml"), "title: B\n");
  const outside = path.join(root, "outside.yaml");
  fs.writeFileSync(outside, "x: 1\n");
  const nodes = [
    keptNode(FILE, ""), // the truncated file: the save's write was missed
    keptNode("services/b.yaml", "title: B\n"),
    keptNode("services/gone.yaml", "title: Gone\n"),
    { ...keptNode(FILE, ""), id: "outside", absolutePath: outside },
    { id: "folder", absolutePath: dataDir, internal: { type: "Directory", contentDigest: "x" } },
  ];
  expect(staleFileNodes(dataDir, nodes).map((n) => n.id)).toEqual([`file ${FILE}`]);
});

test("the node made again is gatsby-source-filesystem's own of the file now, under the same id", async () => {
  const node = await currentFileNode(dataDir, keptNode(FILE, ""), process.cwd());
  expect(node).toMatchObject({
    id: `file ${FILE}`,
    absolutePath: abs(FILE),
    relativePath: FILE,
    relativeDirectory: "services",
    sourceInstanceName: "data",
    internal: { type: "File", mediaType: "text/yaml", contentDigest: md5("title: Saved\n") },
  });
});

describe("DevelopSession", () => {
  const transformer: YamlTransformer = { shouldOnCreateNode: () => true, onCreateNode: async () => undefined };
  const reporter = { error: jest.fn(), success: jest.fn(), warn: jest.fn() } as unknown as ContentReporter;

  async function afterRefresh(kept: SourceFileNode): Promise<jest.Mock> {
    const createNode = jest.fn();
    const session = new DevelopSession(root, reporter, transformer, { validate: () => [], checkText: () => [] });
    session.start([], false);
    const source: SourceArgs = {
      actions: { createNode },
      getNode: () => undefined,
      getNodesByType: (type) => (type === "File" ? [kept] : []),
      cache: { get: async () => undefined, set: async () => undefined },
    };
    await session.attach(source, {});
    await session.refresh();
    return createNode;
  }

  test("after a burst of changes, a missed save is given to Gatsby in gatsby-source-filesystem's name", async () => {
    const createNode = await afterRefresh(keptNode(FILE, ""));
    expect(createNode).toHaveBeenCalledTimes(1);
    expect(createNode).toHaveBeenCalledWith(
      expect.objectContaining({
        id: `file ${FILE}`,
        internal: expect.objectContaining({ contentDigest: md5("title: Saved\n") }),
      }),
      FILESYSTEM,
    );
    expect(reporter.warn).not.toHaveBeenCalled();
  });

  test("a File node that holds its file is left alone", async () => {
    expect(await afterRefresh(keptNode(FILE, "title: Saved\n"))).not.toHaveBeenCalled();
  });
});
