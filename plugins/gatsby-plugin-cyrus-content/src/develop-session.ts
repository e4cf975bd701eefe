import fs from "node:fs";
import path from "node:path";
import { YAML_FILE } from "../../../src/node/content/content-files";
import type { ContentProblem } from "../../../src/node/content/problems";
import { gatsbyCaughtUp, type FileNode } from "./caught-up";
import { ContentCheck, type Validate } from "./content-check";
import { LastGoodVersions, problemsOf } from "./last-good";
import { ProblemsFeed } from "./problems-feed";
import type { ContentReporter } from "./reporter";
import { terminalReport } from "./terminal";
import { runTransformer, type TransformArgs, type YamlFileNode, type YamlTransformer } from "./transformer";
import { watchFolder } from "./watch";

/** Where the files held back are kept between two runs of `gatsby develop` (Gatsby keeps the nodes). */
export const HELD_KEY = "held-back";

/** The part of Gatsby's plugin cache the session uses. */
export interface HeldStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<unknown>;
}

/** sourceNodes' arguments, kept to make nodes after it: as gatsby-source-filesystem's watcher does. */
export type SourceArgs = Omit<TransformArgs, "node" | "loadNodeContent"> & {
  getNode: (id: string) => YamlFileNode | undefined;
  getNodesByType: (type: string) => FileNode[];
  cache: HeldStore;
};

/** Every YAML file under data/, but its schemas folder (as validate.ts reads it). */
function yamlFiles(dataDir: string): string[] {
  return fs
    .readdirSync(dataDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && YAML_FILE.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((abs) => !path.relative(dataDir, abs).startsWith(`schemas${path.sep}`))
    .sort();
}

const isHeldList = (value: unknown): value is Array<[string, string]> =>
  Array.isArray(value) &&
  value.every((e) => Array.isArray(e) && e.length === 2 && e.every((part) => typeof part === "string"));

/**
 * The content check during `gatsby develop`, after it passed at start-up:
 * - every change under data/ is checked again (watcher, debounced); the terminal shows the report
 *   when the result changes, and one line when it is good again; the browser gets the problems
 *   through `feed` (the overlay);
 * - gatsby-transformer-yaml is given each changed file's text when the file has no problems of its
 *   own, else its last good text (or nothing, for a new file), so the site keeps its last good pages;
 * - a file held back is read again as soon as its problems are gone, also when another file fixed
 *   them (a service added that the dropdown already named, an image copied in).
 */
export class DevelopSession {
  readonly dataDir: string;
  readonly check: ContentCheck;
  readonly lastGood = new LastGoodVersions();
  readonly feed = new ProblemsFeed();
  private source: SourceArgs | undefined;
  private options: unknown;

  constructor(
    readonly root: string,
    private readonly reporter: ContentReporter,
    private readonly transformer: YamlTransformer,
    validate?: Validate,
  ) {
    this.dataDir = path.join(root, "data");
    this.check = new ContentCheck(this.dataDir, validate);
    const report = terminalReport(reporter);
    this.check.onResult((problems) => {
      report(problems);
      this.publish();
    });
  }

  /** The browser's view: the problems, and the files held back because of them. */
  private publish(): void {
    this.feed.update(this.check.problems, this.lastGood.heldFiles());
  }

  /** Path from the project root, as problems name files: data/services/study-design.yaml */
  fileOf(abs: string): string {
    return path.relative(this.root, abs).split(path.sep).join("/");
  }

  /** After the start-up check passed (`problems`: none): every content file's text is its last good version. */
  start(problems: ContentProblem[] = [], watch = true): void {
    this.check.seed(problems);
    for (const abs of yamlFiles(this.dataDir)) this.lastGood.record(this.fileOf(abs), fs.readFileSync(abs, "utf8"));
    // For as long as `gatsby develop` runs.
    if (watch) {
      watchFolder(this.dataDir, () => this.refresh(), {
        onError: (error) => this.reporter.warn(`The content check of data/ failed to run again: ${String(error)}`),
      });
    }
  }

  /** onCreateNode of a YAML file: the transformer gets the text chosen for it (src/last-good.ts). */
  async transform(args: TransformArgs, options: unknown): Promise<void> {
    this.options = options;
    const { node } = args;
    const file = this.fileOf(node.absolutePath);
    const text = await args.loadNodeContent(node);
    // A text already known to be good needs no check (start-up reads every file as it is).
    const problems = text === this.lastGood.get(file) ? [] : this.check.run();
    const decision = this.lastGood.choose(file, node.id, text, problems);
    if (decision.use !== "none") await runTransformer(this.transformer, args, options, decision.text);
    this.publish();
    // Not before sourceNodes: the list a previous run left is read there first.
    if (this.source) await this.saveHeld();
  }

  /** sourceNodes: keeps its arguments, and reads again the files a previous run left held back. */
  async attach(source: SourceArgs, options: unknown): Promise<void> {
    this.source = source;
    this.options = options;
    const previous = await source.cache.get(HELD_KEY);
    if (isHeldList(previous) && previous.length > 0) {
      // The content passed the check at start-up, so every one of them is good now.
      await this.release(previous, this.check.problems);
    }
    await this.saveHeld();
  }

  /** After changes under data/: the check, its report, and the files it no longer holds back. */
  async refresh(): Promise<void> {
    const problems = this.check.run();
    for (const file of this.lastGood.files()) {
      if (!fs.existsSync(path.join(this.root, file))) this.lastGood.forget(file);
    }
    await this.release(this.lastGood.heldBack(), problems);
    this.publish();
    await this.saveHeld();
  }

  /**
   * Gives the transformer the current text of each held file that has no problems of its own now,
   * once Gatsby has the nodes of the files that put it right.
   */
  private async release(held: ReadonlyArray<[string, string]>, problems: readonly ContentProblem[]): Promise<void> {
    const source = this.source;
    if (!source || !held.some(([file]) => problemsOf(problems, file).length === 0)) return;
    await gatsbyCaughtUp(this.dataDir, () => source.getNodesByType("File"));
    for (const [file, fileNodeId] of held) {
      if (problemsOf(problems, file).length > 0) continue;
      const abs = path.join(this.root, file);
      const node = source.getNode(fileNodeId);
      if (!node || !fs.existsSync(abs)) {
        this.lastGood.forget(file);
        continue;
      }
      const text = fs.readFileSync(abs, "utf8");
      // Changed again meanwhile, and wrong now: the watcher comes back for it.
      if (problemsOf(this.check.run(), file).length > 0) continue;
      this.lastGood.record(file, text);
      await runTransformer(this.transformer, { ...source, node }, this.options, text);
    }
  }

  private async saveHeld(): Promise<void> {
    await this.source?.cache.set(HELD_KEY, this.lastGood.heldBack());
  }
}
