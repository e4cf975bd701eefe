import { isMap, isScalar, isSeq, Scalar } from "yaml";
import { LOOKALIKE_QUOTES } from "./character-names";
import { locate, type LoadedFile, type Segment } from "./locate";
import type { ContentProblem } from "./problems";

/**
 * Text pasted from a word processor comes in curly quotes (“Project Management”). YAML's quotes are
 * the straight " and ': to YAML the curly ones are letters, so the page shows them as typed, which
 * is seldom what was meant. The site still builds, so it is a warning; and where the check's own
 * advice puts a text in quotes, it leaves such quotes out.
 */

/** An opening and a closing curly quote, as word processors pair them (English, German, French), or primes. */
const WRAPPED = new RegExp(`^\\s*([${LOOKALIKE_QUOTES.open}])([^]*)([${LOOKALIKE_QUOTES.close}])\\s*$`);

/** The text without the curly quotes around all of it (“x” → x); other text as it is. */
export function withoutCurlyQuotes(text: string): string {
  const wrapped = WRAPPED.exec(text);
  return wrapped ? wrapped[2]! : text;
}

/**
 * For a value the schema refuses (a number, a slug) that is in such quotes: what to say instead of
 * "must be a number" about a value that reads right. `name`: its field's name, or a list position.
 */
export function quotedValueAdvice(value: unknown, name: string | number | undefined): string | undefined {
  const wrapped = typeof value === "string" ? WRAPPED.exec(value) : null;
  if (!wrapped) return undefined;
  const [, open, inner, close] = wrapped as unknown as [string, string, string, string];
  const written = typeof name === "string" ? `${name}: ${inner}` : `- ${inner}`;
  return `is in quotes that are not YAML's " and ' (${open} ${close}), so they are part of the value: remove them: ${written}`;
}

/** Each text of the file written in curly quotes from start to end. */
export function curlyQuoteWarnings(file: LoadedFile): ContentProblem[] {
  const warnings: ContentProblem[] = [];
  const walk = (node: unknown, at: Segment[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) if (isScalar(pair.key)) walk(pair.value, [...at, String(pair.key.value)]);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...at, i]));
    } else if (isScalar(node) && node.type === Scalar.PLAIN && typeof node.value === "string") {
      const wrapped = WRAPPED.exec(node.value);
      if (!wrapped) return;
      const [, open, inner, close] = wrapped as unknown as [string, string, string, string];
      const name = at[at.length - 1];
      const written = typeof name === "string" ? `${name}: ${inner}` : `- ${inner}`;
      warnings.push(
        locate(
          file,
          at,
          `the text is in curly quotes (${open} ${close}), which the page would show as typed: YAML's quotes are the straight " and '. If they are not meant to be seen, remove them: ${written}`,
        ),
      );
    }
  };
  walk(file.doc.contents, []);
  return warnings;
}
