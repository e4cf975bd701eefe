/**
 * @jest-environment node
 *
 * What gatsby-transformer-yaml is given for a content file during `gatsby develop`: a good file's
 * text (which becomes its last good version), a bad file's last good text, and nothing for a new bad
 * file; a file held back is read again once its problems are gone.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ContentProblem } from "../../src/node/content/problems";
import {
  DevelopSession,
  HELD_KEY,
  type SourceArgs,
} from "../../plugins/gatsby-plugin-cyrus-content/src/develop-session";
import { LastGoodVersions, decide } from "../../plugins/gatsby-plugin-cyrus-content/src/last-good";
import type { ContentReporter } from "../../plugins/gatsby-plugin-cyrus-content/src/reporter";
import type {
  TransformArgs,
  YamlFileNode,
  YamlTransformer,
} from "../../plugins/gatsby-plugin-cyrus-content/src/transformer";

const FILE = "data/services/a.yaml";
const problem = (file: string, message = "is not a known field"): ContentProblem => ({ file, line: 2, message });

describe("decide", () => {
  test("a good file: its own text", () => {
    expect(decide("title: New", [], "title: Old")).toEqual({ use: "current", text: "title: New" });
  });

  test("a bad file with a last good version: that version", () => {
    expect(decide("titel: New", [problem(FILE)], "title: Old")).toEqual({ use: "last-good", text: "title: Old" });
  });

  test("a new bad file: no nodes", () => {
    expect(decide("titel: New", [problem(FILE)], undefined)).toEqual({ use: "none" });
  });
});

describe("LastGoodVersions", () => {
  test("a good text is recorded; a bad one is held at the last good; only the file's own problems count", () => {
    const versions = new LastGoodVersions();
    expect(versions.choose(FILE, "node-a", "title: One", [problem("data/services/b.yaml")]).use).toBe("current");
    expect(versions.get(FILE)).toBe("title: One");
    expect(versions.choose(FILE, "node-a", "titel: Two", [problem(FILE)])).toEqual({
      use: "last-good",
      text: "title: One",
    });
    expect(versions.get(FILE)).toBe("title: One");
    expect(versions.heldBack()).toEqual([[FILE, "node-a"]]);
    expect(versions.heldFiles()).toEqual([{ file: FILE, lastGood: true }]);
    expect(versions.choose(FILE, "node-a", "title: Three", []).use).toBe("current");
    expect(versions.get(FILE)).toBe("title: Three");
    expect(versions.heldBack()).toEqual([]);
  });

  test("a file that was removed comes back as a new file", () => {
    const versions = new LastGoodVersions();
    versions.record(FILE, "title: One");
    versions.forget(FILE);
    expect(versions.choose(FILE, "node-a", "titel: Two", [problem(FILE)])).toEqual({ use: "none" });
    expect(versions.heldFiles()).toEqual([{ file: FILE, lastGood: false }]);
  });
});

describe("DevelopSession", () => {
  let root: string;
  let abs: string;
  let problems: ContentProblem[];
  let given: Array<{ node: string; text: string }>;
  const transformer: YamlTransformer = {
    shouldOnCreateNode: () => true,
    onCreateNode: async (args) => {
      given.push({ node: args.node.id, text: await args.loadNodeContent(args.node) });
    },
  };
  const reporter = { error: jest.fn(), success: jest.fn(), warn: jest.fn() } as unknown as ContentReporter;
  const node = (): YamlFileNode => ({
    id: "file-a",
    absolutePath: abs,
    internal: { type: "File", mediaType: "text/yaml" },
  });
  const nodeArgs = (): TransformArgs => ({
    node: node(),
    loadNodeContent: async (n) => fs.readFileSync(n.absolutePath, "utf8"),
    actions: { createNode: jest.fn(), createParentChildLink: jest.fn() },
    createNodeId: (id) => id,
    createContentDigest: () => "digest",
  });
  const write = (text: string) => fs.writeFileSync(abs, text);

  /** A session as after a passing start-up check, with its own validation (the problems set by the test). */
  function started(): DevelopSession {
    const session = new DevelopSession(root, reporter, transformer, () => problems);
    session.start([], false);
    return session;
  }

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-last-good-"));
    abs = path.join(root, FILE);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    write("title: One\n");
    problems = [];
    given = [];
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test("start-up records every content file's text as its last good version", () => {
    expect(started().lastGood.get(FILE)).toBe("title: One\n");
  });

  test("a good file: the transformer gets its text, which becomes the last good version", async () => {
    const session = started();
    write("title: Two\n");
    await session.transform(nodeArgs(), {});
    expect(given).toEqual([{ node: "file-a", text: "title: Two\n" }]);
    expect(session.lastGood.get(FILE)).toBe("title: Two\n");
  });

  test("a bad file: the transformer gets its last good text, and the file is held back", async () => {
    const session = started();
    write("titel: Two\n");
    problems = [problem(FILE)];
    await session.transform(nodeArgs(), {});
    expect(given).toEqual([{ node: "file-a", text: "title: One\n" }]);
    expect(session.lastGood.get(FILE)).toBe("title: One\n");
    expect(session.lastGood.isHeld(FILE)).toBe(true);
  });

  test("a new file with problems: no nodes until it is fixed", async () => {
    const session = started();
    abs = path.join(root, "data/services/new.yaml");
    write("titel: New\n");
    problems = [problem("data/services/new.yaml")];
    await session.transform(nodeArgs(), {});
    expect(given).toEqual([]);
    problems = [];
    write("title: New\n");
    await session.transform(nodeArgs(), {});
    expect(given).toEqual([{ node: "file-a", text: "title: New\n" }]);
  });

  /** sourceNodes' arguments, with Gatsby's plugin cache as a Map. */
  const sourceArgs = (cache: Map<string, unknown>, getNode = jest.fn(() => node())): SourceArgs => ({
    ...nodeArgs(),
    getNode,
    // Gatsby has caught up: a File node for every file, as it is on disk.
    getNodesByType: () =>
      fs
        .readdirSync(path.join(root, "data"), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name))
        .map((file) => ({ absolutePath: file, modifiedTime: fs.statSync(file).mtime.toJSON() })),
    cache: {
      get: async (key: string) => cache.get(key),
      set: async (key: string, value: unknown) => cache.set(key, value),
    },
  });

  test("another file's fix releases a held file: the transformer gets its current text", async () => {
    const session = started();
    const cache = new Map<string, unknown>();
    const getNode = jest.fn(() => node());
    await session.attach(sourceArgs(cache, getNode), {});
    write("title: Two\n");
    problems = [problem(FILE, "names a service that is not there yet")];
    await session.transform(nodeArgs(), {});
    expect(given.at(-1)?.text).toBe("title: One\n");
    expect(cache.get(HELD_KEY)).toEqual([[FILE, "file-a"]]);

    problems = [];
    // Something else under data/ changed (the check runs again only then).
    fs.writeFileSync(path.join(root, "data/services/b.yaml"), "title: B\n");
    await session.refresh();
    expect(getNode).toHaveBeenCalledWith("file-a");
    expect(given.at(-1)?.text).toBe("title: Two\n");
    expect(session.lastGood.isHeld(FILE)).toBe(false);
    expect(cache.get(HELD_KEY)).toEqual([]);
  });

  test("a run after one that stopped with files held back reads them again, as they are now", async () => {
    const session = started();
    const cache = new Map<string, unknown>([[HELD_KEY, [[FILE, "file-a"]]]]);
    // Files Gatsby hands over before sourceNodes do not overwrite that list.
    await session.transform(nodeArgs(), {});
    expect(cache.get(HELD_KEY)).toEqual([[FILE, "file-a"]]);
    given = [];
    await session.attach(sourceArgs(cache), {});
    expect(given).toEqual([{ node: "file-a", text: "title: One\n" }]);
    expect(cache.get(HELD_KEY)).toEqual([]);
  });
});
