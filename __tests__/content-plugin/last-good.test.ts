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
  type QueryArgs,
  type SourceArgs,
} from "../../plugins/gatsby-plugin-cyrus-content/src/develop-session";
import { fileDigest } from "../../plugins/gatsby-plugin-cyrus-content/src/file-nodes";
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
  /** The File node Gatsby makes of the file as it is on disk (its id stays with its path). */
  const node = (): YamlFileNode => ({
    id: "file-a",
    absolutePath: abs,
    modifiedTime: fs.statSync(abs).mtime.toJSON(),
    internal: { type: "File", mediaType: "text/yaml", contentDigest: fileDigest(abs) },
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
    const session = new DevelopSession(root, reporter, transformer, {
      validate: () => problems,
      checkText: (_dataDir, file) => problems.filter((p) => p.file === `data/${file}`),
      caughtUp: { interval: 10, timeout: 300 },
    });
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

  /**
   * What sourceNodes and onPreExtractQueries get: Gatsby's nodes (a File node for every file, as it is on
   * disk), the node actions, and its plugin cache as a Map.
   */
  const gatsby = (cache: Map<string, unknown>, getNode = jest.fn(() => node())): SourceArgs & QueryArgs => {
    const { actions, createNodeId, createContentDigest } = nodeArgs();
    return {
      actions,
      createNodeId,
      createContentDigest,
      getNode,
      getNodesByType: () =>
        fs
          .readdirSync(path.join(root, "data"), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.join(entry.parentPath, entry.name))
          .map((file) => ({
            absolutePath: file,
            modifiedTime: fs.statSync(file).mtime.toJSON(),
            internal: { contentDigest: fileDigest(file) },
          })),
      cache: {
        get: async (key: string) => cache.get(key),
        set: async (key: string, value: unknown) => cache.set(key, value),
      },
    };
  };

  /** Gatsby hands over another file (its File node as it is on disk). */
  const handOver = (other: string): TransformArgs => {
    const otherAbs = path.join(root, other);
    return {
      ...nodeArgs(),
      node: {
        id: `file-${path.basename(other)}`,
        absolutePath: otherAbs,
        modifiedTime: fs.statSync(otherAbs).mtime.toJSON(),
        internal: { type: "File", mediaType: "text/yaml", contentDigest: fileDigest(otherAbs) },
      },
    };
  };

  test("another file's fix releases a held file before the queries, once Gatsby has that file: the transformer gets its current text", async () => {
    const session = started();
    const cache = new Map<string, unknown>();
    const getNode = jest.fn(() => node());
    await session.attach(gatsby(cache, getNode), {});
    write("title: Two\n");
    problems = [problem(FILE, "names a service that is not there yet")];
    await session.transform(nodeArgs(), {});
    await session.beforeQueries(gatsby(cache, getNode));
    expect(given.at(-1)?.text).toBe("title: One\n");
    expect(cache.get(HELD_KEY)).toEqual([[FILE, "file-a"]]);

    // The service's file comes: its text puts the held file right, but Gatsby has not handed it over
    // yet (no ServicesYaml node), so the held file waits.
    problems = [];
    fs.writeFileSync(path.join(root, "data/services/b.yaml"), "title: B\n");
    await session.refresh();
    await session.beforeQueries(gatsby(cache, getNode));
    expect(given.map((g) => g.text)).not.toContain("title: Two\n");
    expect(session.lastGood.isHeld(FILE)).toBe(true);

    // Gatsby hands it over, then is about to run the queries: the held file's current text.
    await session.transform(handOver("data/services/b.yaml"), {});
    expect(given.at(-1)?.text).toBe("title: B\n");
    await session.beforeQueries(gatsby(cache, getNode));
    expect(getNode).toHaveBeenCalledWith("file-a");
    expect(given.at(-1)?.text).toBe("title: Two\n");
    expect(session.lastGood.isHeld(FILE)).toBe(false);
    expect(cache.get(HELD_KEY)).toEqual([]);
  });

  test("a query waits for a file Gatsby changed while it runs its queries, until that file's nodes are in", async () => {
    const session = started();
    const cache = new Map<string, unknown>();
    await session.attach(gatsby(cache), {});
    await session.transform(nodeArgs(), {});
    await session.readyForQuery();
    // The file changes while Gatsby runs its queries: it applies the new File node at once (the old
    // nodes gone) and calls onCreateNode without waiting; a query's root field asks meanwhile.
    write("title: Changed\n");
    let read: (text: string) => void = () => undefined;
    const transforming = session.transform(
      { ...nodeArgs(), loadNodeContent: () => new Promise<string>((resolve) => (read = resolve)) },
      {},
    );
    let queried = false;
    const query = session.readyForQuery().then(() => (queried = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(queried).toBe(false);
    read("title: Changed\n");
    await Promise.all([transforming, query]);
    expect(given.at(-1)?.text).toBe("title: Changed\n");
    expect(queried).toBe(true);
  });

  /** A file held for naming a service not there yet; then the service's file is written. */
  async function heldUntilServiceB() {
    const session = started();
    const cache = new Map<string, unknown>();
    await session.attach(gatsby(cache), {});
    write("title: Two\n");
    problems = [problem(FILE, "names a service that is not there yet")];
    await session.transform(nodeArgs(), {});
    problems = [];
    fs.writeFileSync(path.join(root, "data/services/b.yaml"), "title: B\n");
    return { session, cache };
  }

  test("before the queries, the files Gatsby handed over are made into nodes first", async () => {
    const { session, cache } = await heldUntilServiceB();
    // Gatsby calls onCreateNode and goes on to the queries without waiting for it.
    let read: (text: string) => void = () => undefined;
    const transforming = session.transform(
      {
        ...handOver("data/services/b.yaml"),
        loadNodeContent: () => new Promise<string>((resolve) => (read = resolve)),
      },
      {},
    );
    const beforeQueries = session.beforeQueries(gatsby(cache));
    await new Promise((resolve) => setImmediate(resolve));
    expect(given.map((g) => g.text)).toEqual(["title: One\n"]);
    read("title: B\n");
    await Promise.all([transforming, beforeQueries]);
    expect(given.map((g) => g.text)).toEqual(["title: One\n", "title: B\n", "title: Two\n"]);
  });

  test("of two hand-overs of one file, the older one ending last does not stand for the node Gatsby has now", async () => {
    const { session, cache } = await heldUntilServiceB();
    // Gatsby made b.yaml's File node twice (a save's truncation, then its write) and called onCreateNode
    // for each without waiting; the first one's work ends last.
    const newer = handOver("data/services/b.yaml");
    const older = { ...newer, node: { ...newer.node, internal: { ...newer.node.internal, contentDigest: "empty" } } };
    let read: (text: string) => void = () => undefined;
    const first = session.transform(
      {
        ...older,
        loadNodeContent: () => new Promise<string>((resolve) => (read = resolve)),
        getNode: () => newer.node,
      },
      {},
    );
    await session.transform({ ...newer, getNode: () => newer.node }, {});
    read("title: B\n");
    await first;
    await session.beforeQueries(gatsby(cache));
    expect(session.lastGood.isHeld(FILE)).toBe(false);
    expect(given.at(-1)).toEqual({ node: "file-a", text: "title: Two\n" });
  });

  test("of two hand-overs of one file, only the node Gatsby has now is made: an older text never comes after a newer one", async () => {
    const session = started();
    await session.attach(gatsby(new Map()), {});
    // Saved with a slip, then put right at once: Gatsby made the File node twice and handed over both.
    const slip = { ...nodeArgs(), loadNodeContent: async () => "titel: Two\n" };
    const older = { ...slip, node: { ...slip.node, internal: { ...slip.node.internal, contentDigest: "slip" } } };
    write("title: Three\n");
    const newer = nodeArgs();
    problems = [problem(FILE)];
    const first = session.transform({ ...older, getNode: () => newer.node }, {});
    problems = [];
    await Promise.all([first, session.transform({ ...newer, getNode: () => newer.node }, {})]);
    expect(given).toEqual([{ node: "file-a", text: "title: Three\n" }]);
    expect(session.lastGood.isHeld(FILE)).toBe(false);
  });

  test("before the queries, the session waits for Gatsby to hand over the file that put a held file right", async () => {
    const { session, cache } = await heldUntilServiceB();
    // The queries are about to run before Gatsby's watcher has made the service's File node; it comes meanwhile.
    const beforeQueries = session.beforeQueries(gatsby(cache));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(session.lastGood.isHeld(FILE)).toBe(true);
    await session.transform(handOver("data/services/b.yaml"), {});
    await beforeQueries;
    expect(given.map((g) => g.text)).toEqual(["title: One\n", "title: B\n", "title: Two\n"]);
    expect(session.lastGood.isHeld(FILE)).toBe(false);
  });

  test("a run after one that stopped with files held back reads them again, as they are now", async () => {
    const session = started();
    const cache = new Map<string, unknown>([[HELD_KEY, [[FILE, "file-a"]]]]);
    // Files Gatsby hands over before sourceNodes do not overwrite that list.
    await session.transform(nodeArgs(), {});
    expect(cache.get(HELD_KEY)).toEqual([[FILE, "file-a"]]);
    given = [];
    await session.attach(gatsby(cache), {});
    expect(session.lastGood.isHeld(FILE)).toBe(true);
    // Before the first queries.
    await session.beforeQueries(gatsby(cache));
    expect(given).toEqual([{ node: "file-a", text: "title: One\n" }]);
    expect(cache.get(HELD_KEY)).toEqual([]);
  });
});

describe("DevelopSession with the site's checks, on a copy of data/", () => {
  let root: string;
  let given: Array<{ file: string; text: string }>;
  const transformer: YamlTransformer = {
    shouldOnCreateNode: () => true,
    onCreateNode: async (args) => {
      given.push({ file: path.relative(root, args.node.absolutePath), text: await args.loadNodeContent(args.node) });
    },
  };
  const reporter = { error: jest.fn(), success: jest.fn(), warn: jest.fn() } as unknown as ContentReporter;
  const abs = (file: string) => path.join(root, file);
  const fileNode = (file: string): YamlFileNode => ({
    id: `file ${file}`,
    absolutePath: abs(file),
    modifiedTime: fs.statSync(abs(file)).mtime.toJSON(),
    internal: { type: "File", mediaType: "text/yaml", contentDigest: fileDigest(abs(file)) },
  });
  /** Gatsby hands over `file` as `text`: what it read from disk, which may be older than the file now. */
  const handOver = (file: string, text = fs.readFileSync(abs(file), "utf8")): TransformArgs => ({
    node: fileNode(file),
    loadNodeContent: async () => text,
    actions: { createNode: jest.fn(), createParentChildLink: jest.fn() },
    createNodeId: (id) => id,
    createContentDigest: () => "digest",
  });
  const gatsby = (): SourceArgs & QueryArgs => ({
    actions: { createNode: jest.fn(), createParentChildLink: jest.fn() },
    createNodeId: (id) => id,
    createContentDigest: () => "digest",
    getNode: (id: string) => fileNode(id.replace(/^file /, "")),
    getNodesByType: () =>
      fs
        .readdirSync(path.join(root, "data"), { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(entry.parentPath, entry.name))
        .map((file) => ({
          absolutePath: file,
          modifiedTime: fs.statSync(file).mtime.toJSON(),
          internal: { contentDigest: fileDigest(file) },
        })),
    cache: { get: async () => undefined, set: async () => undefined },
  });
  const session = () => {
    const s = new DevelopSession(root, reporter, transformer, { caughtUp: { interval: 10, timeout: 300 } });
    s.start([], false);
    return s;
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-last-good-site-"));
    fs.cpSync(path.resolve(__dirname, "../../data"), path.join(root, "data"), { recursive: true });
    given = [];
  });

  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test("a broken text read before the editor put the file right is held back, not handed to the transformer", async () => {
    const s = session();
    const file = fs
      .readdirSync(path.join(root, "data/services"))
      .filter((name) => name.endsWith(".yaml"))
      .map((name) => `data/services/${name}`)[0]!;
    const good = fs.readFileSync(abs(file), "utf8");
    const edited = good.replace(/^title:.*$/m, "title: Edited");
    fs.writeFileSync(abs(file), edited);
    await s.transform(handOver(file), {});
    expect(given.at(-1)).toEqual({ file, text: edited });
    // A slip, and at once the good text again: on disk the file is good when Gatsby hands over the slip.
    const broken = edited.replace(/^menuLabel:/m, " menuLabel:");
    fs.writeFileSync(abs(file), good);
    await s.transform(handOver(file, broken), {});
    expect(given.at(-1)).toEqual({ file, text: edited });
    expect(given.map((g) => g.text)).not.toContain(broken);
    expect(s.lastGood.isHeld(file)).toBe(true);
    // Then Gatsby hands over the good text.
    await s.transform(handOver(file), {});
    expect(given.at(-1)).toEqual({ file, text: good });
    expect(s.lastGood.isHeld(file)).toBe(false);
  });

  test("the dropdown naming a service to come follows once Gatsby has handed over the service's file", async () => {
    const s = session();
    await s.attach(gatsby(), {});
    const navigation = "data/navigation/navigation.yaml";
    const slug = "content-check-added";
    const services = fs.readdirSync(path.join(root, "data/services")).filter((name) => name.endsWith(".yaml"));
    const named = fs.readFileSync(abs(navigation), "utf8").replace(/^(servicesMenu:\n)(\s*- )/m, `$1$2${slug}\n$2`);
    fs.writeFileSync(abs(navigation), named);
    await s.transform(handOver(navigation), {});
    await s.beforeQueries(gatsby());
    expect(s.lastGood.isHeld(navigation)).toBe(true);
    expect(given.map((g) => g.text)).not.toContain(named);

    const serviceFile = `data/services/${slug}.yaml`;
    const orders = services.map((name) =>
      Number(/^order:\s*(\d+)/m.exec(fs.readFileSync(path.join(root, "data/services", name), "utf8"))?.[1] ?? 0),
    );
    fs.writeFileSync(
      abs(serviceFile),
      fs
        .readFileSync(path.join(root, "data/services", services[0]!), "utf8")
        .replace(/^slug:.*$/m, `slug: ${slug}`)
        .replace(/^order:.*$/m, `order: ${Math.max(...orders) + 1}`),
    );
    // On disk the dropdown is right now, but Gatsby has no node of the service yet: it waits.
    await s.refresh();
    await s.beforeQueries(gatsby());
    expect(s.lastGood.isHeld(navigation)).toBe(true);
    // Gatsby hands the service over, then is about to run the queries.
    await s.transform(handOver(serviceFile), {});
    await s.beforeQueries(gatsby());
    expect(given.slice(-2).map((g) => g.file)).toEqual([serviceFile, navigation]);
    expect(given.at(-1)?.text).toBe(named);
    expect(s.lastGood.isHeld(navigation)).toBe(false);
  });
});
