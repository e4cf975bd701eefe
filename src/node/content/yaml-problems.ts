import { Document, LineCounter, parseDocument, type YAMLError } from "yaml";
import { encodingProblem } from "./encoding";
import { invisibleSpaces } from "./invisible-spaces";
import { oddCharacters } from "./odd-characters";
import { FALLBACK_MESSAGE, pickOnePerLine, Rank, YamlFile, type Candidate, type YamlProblem } from "./yaml-candidates";
import { indentationSlip, listSlips, tabLines, tabProblem } from "./yaml-indentation";
import { aliasProblems, indicatorProblem, INDICATORS, propProblems, unclosedList } from "./yaml-indicators";
import { backslashProblem, unclosedQuote, valueProblem } from "./yaml-quotes";
import { duplicateProblem, secondDocument, textWithoutName } from "./yaml-structure";

/**
 * YAML problems in words a content editor understands. The content files are written by people
 * who are not developers: the parser's own messages ("Nested mappings are not allowed in compact
 * mappings") say nothing to them, one tab can give a thousand errors, and some mistakes are not
 * errors at all for YAML (`*Featured*` is a reference to a missing value, `&amp text` loses its
 * first word). So each mistake gets one message that says what is wrong and how to write it.
 */

export { FALLBACK_MESSAGE, type YamlProblem };

export interface ParsedYaml {
  doc: Document;
  lines: LineCounter;
  /** undefined when problems were found */
  data?: unknown;
  problems: YamlProblem[];
}

/**
 * Parses one content file with the `yaml` package and reports every YAML-level problem in plain words. Never throws.
 */
export function parseYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  // Not UTF-8: whatever YAML makes of it says nothing about the file as its editor sees it.
  const encoding = encodingProblem(text);
  if (encoding) return { doc: new Document(null), lines, problems: [encoding] };
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, customTags: ["timestamp"] });
  } catch {
    // The parser does not throw on bad input; this guards the promise of never throwing all the same.
    return { doc: new Document(null), lines, problems: [{ line: 1, column: 1, message: FALLBACK_MESSAGE }] };
  }
  let problems: YamlProblem[];
  try {
    problems = problemsIn(new YamlFile(text, doc, lines));
  } catch {
    problems = doc.errors.length > 0 ? [{ line: 1, column: 1, message: FALLBACK_MESSAGE }] : [];
  }
  if (problems.length > 0) return { doc, lines, problems };
  try {
    return { doc, lines, data: doc.toJS(), problems };
  } catch {
    return { doc, lines, problems: [{ line: 1, column: 1, message: FALLBACK_MESSAGE }] };
  }
}

function problemsIn(file: YamlFile): YamlProblem[] {
  const candidates: Candidate[] = [];
  const tabs = tabLines(file);
  // Each one is reported where it is (the parser would blame another line, or the line for another reason).
  const oddSpaces = invisibleSpaces(file.lineTexts, (line) => file.inBlockText(line));
  const oddChars = oddCharacters(file);
  const firstTab = Math.min(tabs[0] ?? Infinity, oddSpaces[0]?.line ?? Infinity, oddChars[0]?.line ?? Infinity);
  const errors = [...file.doc.errors].sort((a, b) => a.pos[0] - b.pos[0]);
  const structural = errors.filter((e) => !LOCAL_CODES.has(e.code) && e.code !== "TAB_AS_INDENT");
  // After the first real syntax error the parser loses its footing: what follows is mostly noise.
  // A tab, or a space that is not one, in the indentation counts as such an error too, and so does a
  // character that is not what it looks like (the parser's errors after it are its consequences).
  const first = structural[0];
  const tabAt = firstTab < Infinity ? file.offsetOfLine(firstTab) : file.text.length;
  const firstAt = first ? Math.min(first.pos[0], tabAt) : tabAt;

  candidates.push(...oddSpaces.map((odd) => ({ ...odd, rank: Rank.Specific })), ...oddChars);
  if (first && file.pos(first.pos[0]).line < firstTab) candidates.push(structuralProblem(file, first));
  if (tabs.length > 0) candidates.push(tabProblem(file, tabs));
  const duplicates = new Set<string>();
  for (const error of errors) {
    if (!LOCAL_CODES.has(error.code)) continue;
    if (error.code === "DUPLICATE_KEY") {
      if (error.pos[0] < firstAt) {
        const problem = duplicateProblem(file, error, duplicates);
        if (problem) candidates.push(problem);
      }
    } else {
      candidates.push(localProblem(file, error));
    }
  }
  for (const warning of file.doc.warnings) {
    // Unknown tags are found by walking the nodes below, with the text that shows the fix.
    if (warning.code === "TAG_RESOLVE_FAILED") continue;
    const offset = warning.pos[0];
    const percent = warning.code === "BAD_DIRECTIVE" && file.text.charAt(offset) === "%";
    candidates.push(percent ? indicatorProblem(file, offset, "%") : file.fallback(offset));
  }
  candidates.push(...aliasProblems(file), ...propProblems(file));
  candidates.push(...listSlips(file).filter((slip) => file.offsetOfLine(slip.line) < firstAt));
  return pickOnePerLine(candidates);
}

// ---- the first syntax error ----

function structuralProblem(file: YamlFile, error: YAMLError): Candidate {
  const offset = error.pos[0];
  if (error.code === "MULTIPLE_DOCS") return secondDocument(file, offset);
  return (
    unclosedQuote(file, offset) ??
    unclosedList(file, offset) ??
    valueProblem(file, error) ??
    indentationSlip(file, file.pos(offset).line) ??
    textWithoutName(file, file.pos(offset).line) ??
    file.fallback(offset)
  );
}

// ---- problems that stand on their own ----

function localProblem(file: YamlFile, error: YAMLError): Candidate {
  const offset = error.pos[0];
  switch (error.code) {
    case "BAD_DQ_ESCAPE":
      return backslashProblem(file, offset);
    case "BAD_SCALAR_START": {
      const indicator = file.text.charAt(offset);
      return indicator in INDICATORS ? indicatorProblem(file, offset, indicator) : file.fallback(offset);
    }
    case "BAD_ALIAS":
    case "ALIAS_PROPS":
      return file.text.charAt(offset) === "*" ? indicatorProblem(file, offset, "*") : file.fallback(offset);
    default:
      return file.fallback(offset);
  }
}

/** Error codes that concern one value and leave the rest of the file readable. */
const LOCAL_CODES = new Set<string>(["DUPLICATE_KEY", "BAD_DQ_ESCAPE", "BAD_SCALAR_START", "BAD_ALIAS", "ALIAS_PROPS"]);
