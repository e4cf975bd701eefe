import { isMap, isScalar, isSeq, type Scalar } from "yaml";
import { INVISIBLE, LOOKALIKE_LETTERS } from "./character-names";
import { withoutCurlyQuotes } from "./curly-quotes";
import { formatPath, type LoadedFile, type Segment } from "./locate";
import { oddCharacterIn } from "./odd-characters";
import type { ContentProblem } from "./problems";
import { YamlFile } from "./yaml-candidates";

/**
 * An odd character inside a value (odd-characters.ts names those outside). A text is published with
 * it, and the site survives: a warning, since the studio can save such a text as pasted. Where the
 * schema refuses the value (a slug, a number, an image path), the refusal names the character instead
 * of calling a value that reads right "not valid", and other files' references count the value as it
 * reads, so that one message is given, not a cascade.
 */

/** Each value of the file with an invisible or look-alike character, at that character. */
export function oddCharacterWarnings(file: LoadedFile): ContentProblem[] {
  const yaml = new YamlFile(file.text, file.doc, file.lines);
  const warnings: ContentProblem[] = [];
  const walk = (node: unknown, at: Segment[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) if (isScalar(pair.key)) walk(pair.value, [...at, String(pair.key.value)]);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...at, i]));
    } else if (isScalar(node) && node.range) {
      const problem = oddValueProblem(file, yaml, node, at);
      if (problem) warnings.push(problem);
    }
  };
  walk(file.doc.contents, []);
  return warnings;
}

/** For a value the schema refuses: the odd character in it, when it has one. */
export function oddValueProblem(
  file: LoadedFile,
  yaml: YamlFile | undefined,
  node: Scalar | undefined,
  at: Segment[],
): ContentProblem | undefined {
  if (!node?.range) return undefined;
  const found = oddCharacterIn(yaml ?? new YamlFile(file.text, file.doc, file.lines), node);
  if (!found) return undefined;
  const { line, col } = file.lines.linePos(found.index);
  return { file: file.rel, line, column: col, field: at.length ? formatPath(at) : undefined, message: found.message };
}

/** A value as it reads: without invisible characters and curly quotes, look-alike letters as the Latin ones. */
export function readsAs(value: string): string {
  const letters = [...withoutCurlyQuotes(value)].filter((char) => !(char in INVISIBLE));
  return letters.map((char) => LOOKALIKE_LETTERS[char]?.[1] ?? char).join("");
}
