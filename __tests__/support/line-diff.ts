/**
 * What `git diff` shows of a change to a text file, line by line: the old lines removed (by their
 * 0-based index) and the new lines added (by their index in the new text), the rest in common. A
 * longest common subsequence, as diff's own, for the small files of data/.
 */
export interface LineDiff {
  removed: number[];
  added: number[];
  /** The removed and added lines' text, for failure messages: "-line" and "+line". */
  lines: string[];
}

export function lineDiff(before: string, after: string): LineDiff {
  const a = before.split("\n");
  const b = after.split("\n");
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
  const diff: LineDiff = { removed: [], added: [], lines: [] };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i += 1;
      j += 1;
    } else if (j >= b.length || (i < a.length && lengths[i + 1]![j]! >= lengths[i]![j + 1]!)) {
      diff.removed.push(i);
      diff.lines.push(`-${a[i]}`);
      i += 1;
    } else {
      diff.added.push(j);
      diff.lines.push(`+${b[j]}`);
      j += 1;
    }
  }
  return diff;
}

/** The line (0-based) of an offset in a text. */
export const lineOf = (text: string, offset: number) => text.slice(0, offset).split("\n").length - 1;
