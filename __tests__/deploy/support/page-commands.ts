/**
 * A Markdown page's shell commands as its reader runs them: every ```sh block in order, with the
 * heading it is under, its command lines (a line ending in \ joined to the next, blank and comment
 * lines left out) and the prose that follows it up to the next block or heading, which says what to
 * do with what the block printed or opened.
 */

export interface ShBlock {
  /** The nearest heading above it (## to ####), without its #s. */
  heading: string;
  /** Its command lines, in order. */
  lines: string[];
  /** The text after it, up to the next block or heading. */
  after: string;
}

export function shBlocks(markdown: string): ShBlock[] {
  const blocks: ShBlock[] = [];
  let heading = "";
  let block: string[] | undefined;
  let after: string[] | undefined;
  const endProse = () => {
    if (after && blocks.length > 0) blocks[blocks.length - 1]!.after = after.join("\n").trim();
    after = undefined;
  };
  for (const line of markdown.split("\n")) {
    if (block) {
      if (line.startsWith("```")) {
        blocks.push({ heading, lines: commandLines(block), after: "" });
        block = undefined;
        after = [];
      } else block.push(line);
    } else if (/^#{2,4} /.test(line)) {
      endProse();
      heading = line.replace(/^#+ /, "");
    } else if (line.startsWith("```sh")) {
      endProse();
      block = [];
    } else after?.push(line);
  }
  endProse();
  return blocks;
}

function commandLines(block: string[]): string[] {
  return block
    .join("\n")
    .replace(/\\\n\s*/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

/** A command line's words as sh splits them: quotes grouped and removed, no other shell syntax. */
export function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");
}

/** The setting names (`KEY`) a piece of prose names in backticks. */
export function settingNames(prose: string): string[] {
  return [...new Set([...prose.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)].map((m) => m[1]!))];
}

/**
 * The settings an example file marks `# FILL IN`: the first KEY= line below each such comment
 * (commented out or not).
 */
export function fillInSettings(example: string): string[] {
  const names: string[] = [];
  let marked = false;
  for (const line of example.split("\n")) {
    if (/^#\s*FILL IN\b/.test(line)) marked = true;
    const key = /^#?\s*([A-Z][A-Z0-9_]+)=/.exec(line);
    if (marked && key && !/^#\s{2,}/.test(line)) {
      names.push(key[1]!);
      marked = false;
    }
  }
  return names;
}

/**
 * A settings file with KEY set to value as its owner would do it in an editor: the last `KEY=` line
 * that is not commented out gets the value; with none, the commented-out `# KEY=…` line is
 * uncommented with it.
 */
export function fillIn(text: string, key: string, value: string): string {
  const lines = text.split("\n");
  const plain = lines.map((line, i) => (new RegExp(`^${key}=`).test(line) ? i : -1)).filter((i) => i >= 0);
  const commented = lines.findIndex((line) => new RegExp(`^#\\s?${key}=`).test(line));
  const at = plain.length > 0 ? plain[plain.length - 1]! : commented;
  if (at < 0) throw new Error(`no ${key}= line to fill in`);
  lines[at] = `${key}=${value}`;
  return lines.join("\n");
}
