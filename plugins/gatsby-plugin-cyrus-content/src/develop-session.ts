import fs from "node:fs";
import path from "node:path";
import { YAML_FILE } from "../../../src/node/content/content-files";
import type { ContentProblem } from "../../../src/node/content/problems";
import { checkFileText } from "../../../src/node/content/validate";
import { fileNodesBehind, filesBehind, type Decided, type FileNode } from "./caught-up";
import { ContentCheck, type Validate } from "./content-check";
import { fileDigest, FileNodeSync } from "./file-nodes";
import { LastGoodVersions } from "./last-good";
import { ProblemsFeed } from "./problems-feed";
import type { ContentReporter } from "./reporter";
import { terminalReport, warningReport } from "./terminal";
import { runTransformer, type TransformArgs, type YamlFileNode, type YamlTransformer } from "./transformer";
import { watchFolder } from "./watch";

/** Where the files held back are kept between two runs of `gatsby develop` (Gatsby keeps the nodes). */
export const HELD_KEY = "held-back";

/** The part of Gatsby's plugin cache the session uses. */
export interface HeldStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
}

/** What the session reads of Gatsby's nodes (every Node API's arguments have them). */
export interface NodeLookup {
  getNode: (id: string) => YamlFileNode | undefined;
  getNodesByType: (type: string) => FileNode[];
}

/**
 * sourceNodes' arguments: Gatsby's plugin cache, for the files held back, and its actions, kept (as
 * gatsby-source-filesystem keeps them for its watcher) to bring a File node up to date.
 */
export type SourceArgs = NodeLookup & {
  cache: HeldStore;
  actions: { createNode: (node: unknown, plugin?: { name: string }) => unknown };
};

/** onPreExtractQueries' arguments: what the transformer needs to make nodes, and the nodes Gatsby has. */
export type QueryArgs = Omit<TransformArgs, "node" | "loadNodeContent"> & NodeLookup;

/** Every YAML file under data/, but its schemas folder (as validate.ts reads it). */
function yamlFiles(dataDir: string): string[] {
  return fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && YAML_FILE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((abs) => !path.relative(dataDir, abs).startsWith(`schemas${path.sep}`))
    .sort();
}

/**
 * The problems of one file's text (`file` relative to data/), as if the file held it: its own, and its
 * references to the other files on disk (`checkFileText` of src/node/content/validate.ts).
 */
export type CheckText = (dataDir: string, file: string, text: string) => ContentProblem[];

/** The checks a session runs; tests give their own. */
export interface SessionOptions {
  /** All of data/, for the terminal and the overlay. */
  validate?: Validate;
  /** One text, for the decision. */
  checkText?: CheckText;
  /**
   * How long onPreExtractQueries waits for Gatsby to catch up with data/ (the file that put a held file
   * right, and its nodes), and how often it looks (ms).
   */
  caughtUp?: { interval?: number; timeout?: number };
}

const isHeldList = (value: unknown): value is Array<[string, string]> =>
  Array.isArray(value) &&
  value.every((e) => Array.isArray(e) && e.length === 2 && e.every((part) => typeof part === "string"));

/**
 * The content check during `gatsby develop`, after it passed at start-up:
 * - every change under data/ is checked again (watcher, debounced); the terminal shows the report
 *   when the result changes, and one line when it is good again; the browser gets the problems
 *   through `feed` (the overlay);
 * - gatsby-transformer-yaml is given each changed file's text when that text has no problems of its
 *   own, else the file's last good text (or nothing, for a new file), so the site keeps its last good
 *   pages. The decision is made on the very text the transformer would get, not on the file as it is on
 *   disk by then: an editor may have saved it again meanwhile;
 * - a file held back is read again as soon as its text has no problems, also when another file fixed
 *   them (a service added that the dropdown already named, an image copied in): in
 *   onPreExtractQueries, which Gatsby runs each time it is about to run the queries, once the nodes of
 *   that other file are in Gatsby.
 */
export class DevelopSession {
  readonly dataDir: string;
  readonly check: ContentCheck;
  readonly lastGood = new LastGoodVersions();
  readonly feed = new ProblemsFeed();
  private readonly checkText: CheckText;
  /** What Gatsby has of each YAML file: the text last decided on, with its File node's modifiedTime. */
  private readonly decided = new Map<string, Decided>();
  /** Files Gatsby handed over whose nodes are being made. */
  private readonly transforming = new Set<Promise<void>>();
  private source: SourceArgs | undefined;
  /** The files readyForQuery last waited for in vain (bounded), so that the next queries do not. */
  private gaveUpAt = "";
  private readonly fileNodes: FileNodeSync;
  /** The transformer's plugin options, as Gatsby passes them. */
  private pluginOptions: unknown;
  /** The warnings to the terminal, file by file (those printed at start-up are known in start()). */
  private reportWarnings: (warnings: readonly ContentProblem[]) => void;

  constructor(
    readonly root: string,
    private readonly reporter: ContentReporter,
    private readonly transformer: YamlTransformer,
    private readonly options: SessionOptions = {},
  ) {
    this.dataDir = path.join(root, "data");
    this.check = new ContentCheck(this.dataDir, options.validate);
    this.fileNodes = new FileNodeSync(this.dataDir, root, (text) => reporter.warn(text));
    this.checkText = options.checkText ?? ((dataDir, file, text) => checkFileText(dataDir, file, text, root));
    const report = terminalReport(reporter);
    this.reportWarnings = warningReport(reporter);
    this.check.onResult((problems, warnings) => {
      report(problems);
      this.reportWarnings(warnings);
      this.publish();
    });
  }

  /** The browser's view: the problems, and the files held back because of them. */
  private publish(): void {
    this.feed.update(this.check.problems, this.lastGood.heldFiles(), this.check.warnings);
  }

  /** Path from the project root, as problems name files: data/services/study-design.yaml */
  fileOf(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join("/");
  }

  /** The problems of `text` as the content of `file` (from the project root): only these decide for it. */
  problemsOfText(file: string, text: string): ContentProblem[] {
    const inData = path.relative(this.dataDir, path.join(this.root, file)).split(path.sep).join("/");
    return this.checkText(this.dataDir, inData, text);
  }

  /**
   * After the start-up check passed (`problems`: none): every content file's text is its last good
   * version, and what Gatsby is about to read. `warnings`: those the check at start-up printed.
   */
  start(problems: ContentProblem[] = [], watch = true, warnings: ContentProblem[] = []): void {
    this.check.seed(problems, warnings);
    this.reportWarnings = warningReport(this.reporter, warnings);
    this.publish();
    for (const abs of yamlFiles(this.dataDir)) {
      const file = this.fileOf(abs);
      const text = fs.readFileSync(abs, "utf8");
      this.lastGood.record(file, text);
      this.decided.set(file, { text, modifiedTime: fs.statSync(abs).mtime.toJSON(), contentDigest: fileDigest(abs) });
    }
    // For as long as `gatsby develop` runs.
    if (watch) {
      watchFolder(this.dataDir, () => this.refresh(), {
        onError: (error) => this.reporter.warn(`The content check of data/ failed to run again: ${String(error)}`),
      });
    }
  }

  /** onCreateNode of a YAML file: the transformer gets the text chosen for it (src/last-good.ts). */
  async transform(args: TransformArgs, options: unknown): Promise<void> {
    this.pluginOptions = options;
    const making = this.makeNodes(args, options);
    this.transforming.add(making);
    try {
      await making;
    } finally {
      this.transforming.delete(making);
    }
    // The report (terminal, overlay), after the nodes: it reads all of data/ (shared with the watcher).
    this.check.run();
    this.publish();
    // The node Gatsby handed over may be an earlier state of the file than the one on disk.
    void this.syncFileNodes();
    // Not before sourceNodes: the list a previous run left is read there first.
    if (this.source) await this.saveHeld();
  }

  /**
   * The decision, and the nodes, as soon as Gatsby hands the file over: Gatsby does not wait for
   * onCreateNode before it runs the queries again, so nothing slow comes before the nodes.
   */
  private async makeNodes(args: TransformArgs, options: unknown): Promise<void> {
    const { node } = args;
    const file = this.fileOf(node.absolutePath);
    if (this.superseded(args)) return;
    const text = await args.loadNodeContent(node);
    // The decision: this very text. The file on disk may be another by now (saved again meanwhile):
    // a broken text must not reach the transformer because the file was put right after it was read.
    // A text already known to be good needs no check (start-up reads every file as it is).
    const problems = text === this.lastGood.get(file) ? [] : this.problemsOfText(file, text);
    if (this.superseded(args)) return;
    const decision = this.lastGood.choose(file, node.id, text, problems);
    try {
      if (decision.use !== "none") await runTransformer(this.transformer, args, options, decision.text);
    } finally {
      if (!this.superseded(args)) {
        this.decided.set(file, { text, modifiedTime: node.modifiedTime, contentDigest: node.internal.contentDigest });
      }
    }
  }

  /**
   * Gatsby has made the file's File node again since it handed this one over (two quick saves, or its
   * watcher and src/file-nodes.ts; it does not wait for onCreateNode): the newer node's own hand-over
   * makes the nodes. An older one's work that ended last put back the text before a fix (a page kept
   * "(edited)"), or stood for the node Gatsby has now (a held dropdown waited for a file Gatsby had).
   */
  private superseded({ node, getNode }: TransformArgs): boolean {
    const current = getNode?.(node.id);
    return current !== undefined && current.internal.contentDigest !== node.internal.contentDigest;
  }

  /** sourceNodes: Gatsby's cache; the files a previous run left held back are read again before the first queries. */
  async attach(source: SourceArgs, options: unknown): Promise<void> {
    this.source = source;
    this.pluginOptions ??= options;
    const previous = await source.cache.get(HELD_KEY);
    // The content passed the check at start-up, so every one of them is good now.
    if (isHeldList(previous)) for (const [file, fileNodeId] of previous) this.lastGood.hold(file, fileNodeId);
    await this.saveHeld();
  }

  /**
   * After changes under data/: the check and its report; files removed are forgotten; and Gatsby's
   * File nodes are brought up to date with the files, should its watcher have missed the last save.
   */
  async refresh(): Promise<void> {
    this.check.run();
    for (const file of this.lastGood.files()) {
      if (!fs.existsSync(path.join(this.root, file))) this.lastGood.forget(file);
    }
    this.publish();
    await this.saveHeld();
    await this.syncFileNodes();
  }

  /** Asks for a look at Gatsby's File nodes against the files (src/file-nodes.ts), once sourceNodes ran. */
  private syncFileNodes(): Promise<void> {
    return this.source ? this.fileNodes.sync(this.source) : Promise.resolve();
  }

  /**
   * onPreExtractQueries, which Gatsby runs, and waits for, each time it is about to run the queries
   * (after every batch of node changes, and once at start-up), before it works out which queries to
   * run: gives the transformer the current text of each held file whose text has no problems now, once
   * Gatsby has the nodes of every file under data/ as it is on disk, so that the service the dropdown
   * names, or the image, is in Gatsby before the text that needs it, and the queries run on both.
   * Gatsby's watcher can be a moment behind the file that put it right: this waits for it (a node
   * change that comes meanwhile is taken in at once, and brings another run of the queries), at most
   * `caughtUp.timeout` ms; after that the file stays held until the next time.
   */
  async beforeQueries(args: QueryArgs): Promise<void> {
    const end = Date.now() + this.caughtUpOptions().timeout;
    await this.transformsDone(end);
    void this.syncFileNodes();
    const caughtUp = (images: boolean) => this.caughtUp(args, end, images);
    // Gatsby removes a changed File node's nodes at once and makes them again only in onCreateNode,
    // which it does not wait for: no query runs before they are back (a query without the service the
    // dropdown names fails, and Gatsby may not run it again).
    if (!(await caughtUp(false))) return;
    if (this.fixed().length === 0) return;
    if (!(await caughtUp(true))) return;
    // Checked again, against the files Gatsby has now.
    for (const { file, fileNodeId, text } of this.fixed()) {
      const node = args.getNode(fileNodeId);
      if (!node) {
        this.lastGood.forget(file);
        continue;
      }
      this.lastGood.record(file, text);
      await runTransformer(this.transformer, { ...args, node }, this.pluginOptions, text);
      this.decided.set(file, { text, modifiedTime: node.modifiedTime, contentDigest: node.internal.contentDigest });
    }
    this.publish();
    await this.saveHeld();
  }

  private caughtUpOptions(): { interval: number; timeout: number } {
    const { interval = 100, timeout = 10_000 } = this.options.caughtUp ?? {};
    return { interval, timeout };
  }

  /** Whether every YAML file's nodes are in Gatsby (`images`: and every image's File node), by `end`. */
  private async caughtUp(nodes: NodeLookup, end: number, images: boolean): Promise<boolean> {
    const decided = (abs: string) => this.decided.get(this.fileOf(abs));
    while (filesBehind(this.dataDir, nodes.getNodesByType("File"), decided, { images }).length > 0) {
      if (Date.now() >= end) return false;
      await new Promise((resolve) => setTimeout(resolve, this.caughtUpOptions().interval));
      await this.transformsDone(end);
    }
    return true;
  }

  /**
   * Before a query reads content (src/query-wait.ts), bounded like beforeQueries: a file changed while
   * Gatsby runs its queries has its nodes removed at once and made again in an onCreateNode it does not
   * wait for, and a query run in between fails (the dropdown's service missing) or reads the page
   * without it; Gatsby then marks that query clean when it ends, and never runs it again.
   */
  async readyForQuery(): Promise<void> {
    const nodes = this.source;
    if (!nodes) return;
    const { interval, timeout } = this.caughtUpOptions();
    const end = Date.now() + timeout;
    const decided = (abs: string) => this.decided.get(this.fileOf(abs));
    const behind = () => fileNodesBehind(this.dataDir, nodes.getNodesByType("File"), decided).join("\n");
    let waiting = behind();
    // A state already waited for in vain is not waited for again by every query.
    while (waiting !== "" && waiting !== this.gaveUpAt) {
      if (Date.now() >= end) {
        this.gaveUpAt = waiting;
        return;
      }
      await this.transformsDone(end);
      await new Promise((resolve) => setTimeout(resolve, interval));
      waiting = behind();
    }
  }

  /** The files Gatsby handed over so far are nodes (or held back); waits until `end` at most. */
  private async transformsDone(end: number): Promise<void> {
    if (this.transforming.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.transforming]),
      new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, end - Date.now())))),
    ]);
    clearTimeout(timer);
  }

  /** The held files whose text on disk has no problems now, with that text. */
  private fixed(): Array<{ file: string; fileNodeId: string; text: string }> {
    const fixed: Array<{ file: string; fileNodeId: string; text: string }> = [];
    for (const [file, fileNodeId] of this.lastGood.heldBack()) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(this.root, file), "utf8");
      } catch {
        continue; // removed: refresh() forgets it
      }
      if (this.problemsOfText(file, text).length === 0) fixed.push({ file, fileNodeId, text });
    }
    return fixed;
  }

  private async saveHeld(): Promise<void> {
    await this.source?.cache.set(HELD_KEY, this.lastGood.heldBack());
  }
}
