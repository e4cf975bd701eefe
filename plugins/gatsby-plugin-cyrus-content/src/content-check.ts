import fs from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../../../src/node/content/problems";
import { inspectContent, type ContentReport } from "../../../src/node/content/validate";

/** The check of all of data/: its problems, or its problems and warnings (inspectContent). */
export type Validate = (dataDir: string) => ContentProblem[] | ContentReport;

/** Every file and folder under `dir` with its size and modification time: changes when anything does. */
export function signatureOf(dir: string): string {
  const parts: string[] = [];
  const visit = (folder: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      parts.push(`${folder}\0missing`);
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        parts.push(`${abs}/`);
        visit(abs);
      } else {
        try {
          const stat = fs.statSync(abs);
          parts.push(`${abs}\0${stat.size}\0${stat.mtimeMs}`);
        } catch {
          // Removed while we looked: the next look sees it gone.
        }
      }
    }
  };
  visit(dir);
  return parts.join("\n");
}

/**
 * The content check of data/ during `gatsby develop`, shared by the file watcher and the YAML
 * transformer: a change to data/ is checked once, however many of them ask (a `git checkout`
 * changes many files at once). A fresh result goes to every listener.
 */
export class ContentCheck {
  private last: ({ signature: string } & ContentReport) | undefined;
  private readonly listeners = new Set<(problems: ContentProblem[], warnings: ContentProblem[]) => void>();

  constructor(
    readonly dataDir: string,
    private readonly validate: Validate = inspectContent,
  ) {}

  /** The problems of data/ as it is now (validated again only when something under it changed). */
  run(): ContentProblem[] {
    // The signature is taken first: a change made while validating makes the next run validate again.
    const signature = signatureOf(this.dataDir);
    if (this.last?.signature === signature) return this.last.problems;
    const result = this.validate(this.dataDir);
    const { problems, warnings } = Array.isArray(result) ? { problems: result, warnings: [] } : result;
    this.last = { signature, problems, warnings };
    for (const listener of this.listeners) listener(problems, warnings);
    return problems;
  }

  /** Starts from a result already known (the check at start-up), so that it is not run again. */
  seed(problems: ContentProblem[], warnings: ContentProblem[] = []): void {
    this.last = { signature: signatureOf(this.dataDir), problems, warnings };
  }

  get problems(): ContentProblem[] {
    return this.last?.problems ?? [];
  }

  /**
   * What the editor should know, though the site builds (a text far too long for its place, a picture far too large).
   */
  get warnings(): ContentProblem[] {
    return this.last?.warnings ?? [];
  }

  onResult(listener: (problems: ContentProblem[], warnings: ContentProblem[]) => void): void {
    this.listeners.add(listener);
  }
}
