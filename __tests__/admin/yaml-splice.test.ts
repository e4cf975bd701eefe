/**
 * @jest-environment node
 *
 * A save from the studio changes only what changed (admin/src/yaml/splice.ts): for every content file
 * under data/, every field changed alone, every list entry added, removed or moved, the line diff (what
 * `git diff` shows) touches that field's or entry's own lines and nothing else; comments, blank lines
 * and quoting stay; and the saved text reads back as exactly the edited data.
 */
import fs from "node:fs";
import path from "node:path";
import { isMap, isPair, isScalar, isSeq, Lexer, parse, parseDocument, type Node } from "yaml";
import { SOURCE, withSource, yamlLines } from "../../admin/src/yaml/format";
import { LINE_WIDTH } from "../../admin/src/yaml/scalar";
import { spliceYaml } from "../../admin/src/yaml/splice";
import { writeYaml } from "../../admin/src/yaml/write";
import { contentFiles, filesOf } from "../../src/node/content/content-files";
import { lineDiff, lineOf } from "../support/line-diff";

const dataDir = path.resolve(__dirname, "../../data");
const files = contentFiles.flatMap((source) => filesOf(dataDir, source));
const read = (file: string) => fs.readFileSync(path.join(dataDir, file), "utf8");

type Data = Record<string, unknown>;
type Path = Array<string | number>;

/** A node of the file, with the lines its text spans (a field's from its key's line). */
interface Located {
  path: Path;
  node: Node;
  first: number;
  last: number;
}

/** Every node of a file with its lines: fields (key to value) and list entries (dash to end). */
function locate(text: string): Located[] {
  const found: Located[] = [];
  const end = (node: Node): number => {
    if (isMap(node)) return Math.max(...node.items.map((p) => Math.max(end(p.key as Node), end(p.value as Node))));
    if (isSeq(node)) return Math.max(...node.items.map((item) => end(item as Node)));
    return text.slice(0, node.range![1]).trimEnd().length;
  };
  const walk = (node: Node, at: Path, from: number) => {
    found.push({ path: at, node, first: lineOf(text, from), last: lineOf(text, end(node) - 1) });
    if (isMap(node))
      for (const pair of node.items)
        if (isPair(pair) && isScalar(pair.key))
          walk(pair.value as Node, [...at, String(pair.key.value)], pair.key.range![0]);
    if (isSeq(node)) node.items.forEach((item, i) => walk(item as Node, [...at, i], (item as Node).range![0]));
  };
  walk(parseDocument(text).contents as Node, [], 0);
  return found.slice(1);
}

const getIn = (data: unknown, at: Path): unknown =>
  at.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], data);

function setIn(data: Data, at: Path, value: unknown): Data {
  const copy = structuredClone(data);
  const parent = getIn(copy, at.slice(0, -1)) as Record<string | number, unknown>;
  parent[at.at(-1)!] = value;
  return copy;
}

/** Array.prototype.toSpliced, which the project's ES2022 target does not have. */
function spliced<T>(list: T[], start: number, remove: number, ...items: T[]): T[] {
  return [...list.slice(0, start), ...items, ...list.slice(start + remove)];
}

/** The file's comments, as YAML reads them (a "## heading" inside a block of Markdown is text, not one). */
const comments = (text: string) => [...new Lexer().lex(text)].filter((token) => token.startsWith("#"));

/** The same value with one word changed, of the same length: one line of its text changes. */
function oneWordChanged(value: unknown): unknown {
  if (typeof value === "number") return value + 1;
  if (typeof value === "boolean") return !value;
  const text = String(value);
  const changed = text.replace(/[A-Za-z]+(?=[^A-Za-z]*$)/, (word) => "q".repeat(word.length));
  return changed === text ? `${text}q` : changed;
}

describe.each(files)("%s", (file) => {
  const text = read(file);
  const data = parse(text) as Data;
  const nodes = locate(text);
  const isFlow = (at: Path) =>
    (nodes.find((n) => n.path.join(".") === at.join("."))?.node as { flow?: boolean } | undefined)?.flow === true;

  /**
   * The list at `list` saved edited: it reads back as edited, and its comments stay. A list written
   * on one line, `[a, b]`, stays there (that one line changes): nothing more to check (undefined).
   */
  const saveList = (list: Path, edited: Data) => {
    const saved = spliceYaml(text, edited);
    const diff = lineDiff(text, saved);
    expect(parse(saved)).toEqual(edited);
    expect(comments(saved)).toEqual(comments(text));
    if (!isFlow(list)) return { saved, diff };
    expect(diff.lines).toHaveLength(2);
    return undefined;
  };

  test("saved unchanged, it stays byte for byte the same", () => {
    expect(spliceYaml(text, data)).toBe(text);
  });

  test("each field changed alone changes that field's one line; comments and the rest stay", () => {
    const leaves = nodes.filter(({ node }) => isScalar(node));
    expect(leaves.length).toBeGreaterThan(0);
    for (const { path: at, node, first, last } of leaves) {
      const edited = setIn(data, at, oneWordChanged((node as { value: unknown }).value));
      const saved = spliceYaml(text, edited);
      const diff = lineDiff(text, saved);
      expect({ at, removed: diff.removed.length, added: diff.added.length }).toEqual({ at, removed: 1, added: 1 });
      expect(diff.removed[0]).toBeGreaterThanOrEqual(first);
      expect(diff.removed[0]).toBeLessThanOrEqual(last);
      expect(parse(saved)).toEqual(edited);
      expect(comments(saved)).toEqual(comments(text));
    }
  });

  test("each list entry removed takes exactly its own lines away", () => {
    const entries = nodes.filter(({ path: at }) => typeof at.at(-1) === "number");
    for (const { path: at, first, last } of entries) {
      const list = getIn(data, at.slice(0, -1)) as unknown[];
      if (list.length < 2) continue;
      const result = saveList(at.slice(0, -1), setIn(data, at.slice(0, -1), spliced(list, at.at(-1) as number, 1)));
      if (!result) continue;
      // (A diff may show the same change shifted by a line, where an entry starts as the next does.)
      expect({ at, saved: result.saved.split("\n") }).toEqual({
        at,
        saved: spliced(text.split("\n"), first, last - first + 1),
      });
    }
  });

  test("an entry added to each list, first or last, adds only its own lines, written as the list's", () => {
    const lists = nodes.filter(({ node }) => isSeq(node));
    for (const { path: at, node, last } of lists) {
      const first = lineOf(text, (node as { items: Node[] }).items[0]!.range![0]);
      const list = getIn(data, at) as unknown[];
      const added = newEntryLike(list[0]);
      for (const position of [0, list.length]) {
        const result = saveList(at, setIn(data, at, spliced(list, position, 0, added)));
        if (!result) continue;
        const { saved, diff } = result;
        expect({ at, position, removed: diff.removed }).toEqual({ at, position, removed: [] });
        const lines = saved.split("\n");
        // Together, right where the entry goes: before the list's first line or after its last.
        const at0 = position === 0 ? first : last + 1;
        const old = text.split("\n");
        expect({ at, position, saved: spliced(lines, at0, diff.added.length) }).toEqual({ at, position, saved: old });
        // Its dash where the list's other dashes are.
        const dash = text.split("\n")[first]!.indexOf("-");
        expect(lines[at0]!.indexOf("-")).toBe(dash);
      }
    }
  });

  test("two entries swapped move with their own text, unchanged", () => {
    for (const { path: at } of nodes.filter(({ node }) => isSeq(node))) {
      const list = getIn(data, at) as unknown[];
      if (list.length < 2 || JSON.stringify(list[0]) === JSON.stringify(list[1])) continue;
      const result = saveList(at, setIn(data, at, [list[1], list[0], ...list.slice(2)]));
      if (!result) continue;
      const { diff } = result;
      const removed = diff.lines.filter((l) => l.startsWith("-")).map((l) => l.slice(1));
      const added = diff.lines.filter((l) => l.startsWith("+")).map((l) => l.slice(1));
      expect([...added].sort()).toEqual([...removed].sort());
    }
  });

  test("a top-level field removed takes its lines away; one added goes where the form has it", () => {
    const keys = Object.keys(data);
    for (const { path: at, first, last } of nodes.filter(({ path: p }) => p.length === 1)) {
      const { [at[0]!]: _gone, ...rest } = data;
      const saved = spliceYaml(text, rest).split("\n");
      expect({ at, saved }).toEqual({ at, saved: spliced(text.split("\n"), first, last - first + 1) });
    }
    const order = [keys[0]!, "addedField", ...keys.slice(1)];
    const saved = spliceYaml(text, { ...data, addedField: "A new field: its value" }, order);
    const diff = lineDiff(text, saved);
    expect(diff.removed).toEqual([]);
    expect(diff.lines).toEqual(['+addedField: "A new field: its value"']);
    const firstField = nodes.find(({ path: p }) => p.length === 1)!;
    expect(diff.added).toEqual([firstField.last + 1]);
  });
});

/** A new entry for a list: a text, or a copy of an entry with each of its texts changed. */
function newEntryLike(entry: unknown): unknown {
  if (typeof entry === "string") return "A new entry: added #1";
  if (Array.isArray(entry)) return entry.map(newEntryLike);
  if (entry && typeof entry === "object")
    return Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, newEntryLike(value)]));
  return entry;
}

describe("values read back exactly as typed", () => {
  const service = "services/project-management.yaml";
  const navigation = "navigation/navigation.yaml";
  const typed = [
    "a: b",
    "x #y",
    "2022",
    "1.10",
    "yes",
    "No",
    "on",
    "~",
    "null",
    "*Featured*",
    "&anchor",
    "!tag",
    "- a",
    "? q",
    "[a]",
    "{a}",
    "'single'",
    '"double"',
    "%p",
    "@at",
    "`tick",
    "0o17",
    "0x1F",
    "1:20",
    "1e3",
    ".5",
    "true",
    " padded ",
    "tab\there",
    "two\nlines",
    "“curly”",
    "",
    "#hash",
    "ends with #",
    ":",
    "-",
    "|",
    ">",
    "ünïcödé – dash",
  ];

  test.each(typed)("%j as a plain field and as a double-quoted one", (value) => {
    for (const [file, at] of [
      [service, ["menuLabel"]],
      [navigation, ["main", 1, "label"]],
    ] as const) {
      const text = read(file);
      const edited = setIn(parse(text) as Data, [...at], value);
      const saved = spliceYaml(text, edited);
      expect(parse(saved)).toEqual(edited);
      expect(parse(saved, { version: "1.1" })).toEqual(parse(saved));
      expect(lineDiff(text, saved).removed).toHaveLength(1);
    }
  });

  test("a label kept in double quotes stays in them; a plain one stays plain when it can", () => {
    const nav = read(navigation);
    const saved = spliceYaml(nav, setIn(parse(nav) as Data, ["main", 1, "label"], "About"));
    expect(lineDiff(nav, saved).lines).toEqual(['-  - label: "About Us"', '+  - label: "About"']);
    const text = read(service);
    const plain = spliceYaml(text, setIn(parse(text) as Data, ["menuLabel"], "Project Managers"));
    expect(lineDiff(text, plain).lines).toEqual(["-menuLabel: Project Management", "+menuLabel: Project Managers"]);
  });

  test("a new long paragraph is a folded block within the files' width, reading back as typed", () => {
    const text = read(service);
    const data = parse(text) as Data;
    const paragraph = `${"A long paragraph, typed in the studio: with a colon, a #hash and 2022. ".repeat(4)}The end.`;
    const edited = { ...data, intro: [...(data.intro as string[]), paragraph] };
    const saved = spliceYaml(text, edited);
    const added = lineDiff(text, saved).lines.map((line) => line.slice(1));
    expect(added[0]).toBe("  - >-");
    expect(added.length).toBeGreaterThan(3);
    for (const line of added) expect(line.length).toBeLessThanOrEqual(LINE_WIDTH);
    // No line of it starts with # (to people, a comment).
    expect(added.filter((line) => line.trimStart().startsWith("#"))).toEqual([]);
    expect(parse(saved)).toEqual(edited);
  });

  test("a word added to a folded paragraph changes its line (and the next only if it overflows)", () => {
    const text = read(service);
    const data = parse(text) as Data;
    const [intro] = data.intro as string[];
    const edited = { ...data, intro: [intro!.replace("coordinate every team", "coordinate every single team")] };
    const diff = lineDiff(text, spliceYaml(text, edited));
    expect(diff.removed.length).toBe(1);
    expect(diff.added.length).toBeLessThanOrEqual(2);
  });
});

describe("the studio's format", () => {
  const file = "services/project-management.yaml";
  const text = read(file);
  const data = yamlLines.fromFile(text);

  test("reads as the site reads, and saves an existing file by splicing into its text", () => {
    const { [SOURCE]: source, ...fields } = data;
    expect(fields).toEqual(parse(text));
    expect(source).toBe(text);
    const edited = { ...fields, menuLabel: "Projects" };
    const saved = yamlLines.toFile(withSource(edited, text, false));
    expect(saved).toBe(spliceYaml(text, edited));
    expect(saved).not.toContain(SOURCE);
    // Decap's backup of unsaved changes (toFile of the draft's data, without preSave) splices too.
    expect(yamlLines.toFile({ ...data, menuLabel: "Projects" })).toBe(saved);
  });

  test("writes a new file whole, its fields in the form's order", () => {
    const { [SOURCE]: _source, ...fields } = data;
    const order = Object.keys(fields).reverse();
    const saved = yamlLines.toFile(withSource(fields, "", true), order);
    expect(saved).toBe(writeYaml(fields, order));
    expect(Object.keys(parse(saved) as Data)).toEqual(order);
    expect(parse(saved)).toEqual(fields);
    // The entry's text is not handed on for a new entry...
    expect(yamlLines.toFile(withSource(fields, text, true), order)).toBe(saved);
    // ...but a copy of an entry (Decap's Duplicate) is written from the text it was read from.
    expect(yamlLines.toFile({ ...data, slug: "project-management-copy" }, order)).toBe(
      spliceYaml(text, { ...fields, slug: "project-management-copy" }, order),
    );
  });

  test("a text that does not parse is written anew rather than spliced into", () => {
    expect(spliceYaml("title: [unclosed\n", { title: "Fixed" })).toBe("title: Fixed\n");
  });
});

test("a paragraph typed with line breaks keeps them, as a literal block", () => {
  const text = read("services/project-management.yaml");
  const data = parse(text) as Data;
  const edited = { ...data, description: "First line.\nSecond line." };
  const saved = spliceYaml(text, edited);
  expect(saved).toContain("description: |-\n  First line.\n  Second line.\nbanner:");
  expect(parse(saved)).toEqual(edited);
});

describe("a new list line is quoted like its neighbours", () => {
  test("a menu line added to navigation.yaml, whose lines quote their label and address", () => {
    const text = read("navigation/navigation.yaml");
    const data = parse(text) as { main: Array<Record<string, unknown>> };
    const neighbours = parseDocument(text).getIn(["main"]) as { items: Node[] };
    const quotedEverywhere = ["label", "to"].every((key) =>
      neighbours.items.every(
        (item) => (isMap(item) ? (item.get(key, true) as { type?: string }).type : "") === "QUOTE_DOUBLE",
      ),
    );
    // What the test stands on: today's menu quotes both fields of every line.
    expect(quotedEverywhere).toBe(true);
    const line = { label: "Careers", to: "/careers" };
    const saved = spliceYaml(text, { ...data, main: [...data.main, line] });
    expect(parse(saved)).toEqual({ ...data, main: [...data.main, line] });
    const diff = lineDiff(text, saved);
    expect(diff.removed).toEqual([]);
    expect(diff.lines.map((entry) => entry.replace(/^\+\s*/, "+"))).toEqual(['+- label: "Careers"', '+to: "/careers"']);
  });

  test("a plain list stays plain, and a field its neighbours do not agree on is written plain", () => {
    const text = 'items:\n  - a\n  - b\nmixed:\n  - name: "One"\n  - name: Two\n';
    const saved = spliceYaml(text, {
      items: ["a", "b", "c"],
      mixed: [{ name: "One" }, { name: "Two" }, { name: "Three" }],
    });
    expect(saved).toBe('items:\n  - a\n  - b\n  - c\nmixed:\n  - name: "One"\n  - name: Two\n  - name: Three\n');
  });

  test("a value plain quoting would change is quoted whatever the neighbours do", () => {
    const saved = spliceYaml("items:\n  - a\n", { items: ["a", "yes"] });
    expect(parse(saved)).toEqual({ items: ["a", "yes"] });
  });
});
