import type { ContentProblem } from "../../../src/node/content/problems";
import type { HeldFile } from "./endpoints";

/**
 * What gatsby-transformer-yaml is given for a content file during `gatsby develop`:
 * - `current`: the file is good: its text, which becomes its last good version;
 * - `last-good`: the file has problems of its own: the text it had when it was last good, so its
 *   pages keep showing that instead of a query error, a blank page or a 404;
 * - `none`: a new file with problems: no nodes until it is fixed.
 */
export type Decision =
  { use: "current"; text: string } | { use: "last-good"; text: string } | { use: "none"; text?: undefined };

/** The problems that are the file's own (named by its path from the project root, as problems are). */
export const problemsOf = (problems: readonly ContentProblem[], file: string): ContentProblem[] =>
  problems.filter((p) => p.file === file);

export function decide(text: string, ownProblems: readonly ContentProblem[], lastGood: string | undefined): Decision {
  if (ownProblems.length === 0) return { use: "current", text };
  if (lastGood !== undefined) return { use: "last-good", text: lastGood };
  return { use: "none" };
}

/**
 * The last good text of every content file (by its path from the project root), and the files whose
 * nodes are held back at it (or have none) because of their problems, with the id of their File node,
 * so that they can be read again once their problems are gone.
 */
export class LastGoodVersions {
  private readonly texts = new Map<string, string>();
  private readonly held = new Map<string, string>();

  get(file: string): string | undefined {
    return this.texts.get(file);
  }

  record(file: string, text: string): void {
    this.texts.set(file, text);
    this.held.delete(file);
  }

  /** Held back by a previous run of `gatsby develop` (its nodes are in Gatsby's cache). */
  hold(file: string, fileNodeId: string): void {
    this.held.set(file, fileNodeId);
  }

  /** A file that is no longer there: when it comes back, it is a new file. */
  forget(file: string): void {
    this.texts.delete(file);
    this.held.delete(file);
  }

  /** Decides for the file's current text, and keeps the record: a good text is its new last good. */
  choose(file: string, fileNodeId: string, text: string, problems: readonly ContentProblem[]): Decision {
    const decision = decide(text, problemsOf(problems, file), this.texts.get(file));
    if (decision.use === "current") this.record(file, text);
    else this.held.set(file, fileNodeId);
    return decision;
  }

  /** Files held back, with their File node's id. */
  heldBack(): Array<[file: string, fileNodeId: string]> {
    return [...this.held];
  }

  /** Files held back, and whether they have a last good version to show. */
  heldFiles(): HeldFile[] {
    return [...this.held.keys()].map((file) => ({ file, lastGood: this.texts.has(file) }));
  }

  isHeld(file: string): boolean {
    return this.held.has(file);
  }

  files(): string[] {
    return [...this.texts.keys()];
  }
}
