import fs from "node:fs";
import path from "node:path";
import type { ContentProblem } from "../../../src/node/content/problems";
import { validateContent } from "../../../src/node/content/validate";

export type Validate = (dataDir: string) => ContentProblem[];

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
  private last: { signature: string; problems: ContentProblem[] } | undefined;
  private readonly listeners = new Set<(problems: ContentProblem[]) => void>();

  constructor(
    readonly dataDir: string,
    private readonly validate: Validate = validateContent,
  ) {}

  /** The problems of data/ as it is now (validated again only when something under it changed). */
  run(): ContentProblem[] {
    // The signature is taken first: a change made while validating makes the next run validate again.
    const signature = signatureOf(this.dataDir);
    if (this.last?.signature === signature) return this.last.problems;
    const problems = this.validate(this.dataDir);
    this.last = { signature, problems };
    for (const listener of this.listeners) listener(problems);
    return problems;
  }

  /** Starts from a result already known (the check at start-up), so that it is not run again. */
  seed(problems: ContentProblem[]): void {
    this.last = { signature: signatureOf(this.dataDir), problems };
  }

  get problems(): ContentProblem[] {
    return this.last?.problems ?? [];
  }

  onResult(listener: (problems: ContentProblem[]) => void): void {
    this.listeners.add(listener);
  }
}
