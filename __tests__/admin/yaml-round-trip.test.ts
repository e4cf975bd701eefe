/**
 * @jest-environment node
 *
 * A new file saved by the studio is written whole by its YAML format (admin/src/yaml/format.ts; an
 * existing file is spliced instead, yaml-splice.test.ts): every content file so written, with the
 * field order the studio passes, keeps its data, and the copy of data/ so saved passes the content
 * check with the same warnings (so every image path still names its image). Saved with its own text,
 * an unchanged file stays byte for byte the same.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { SOURCE, yamlLines } from "../../admin/src/yaml/format";
import { cmsCollections } from "../../src/node/content/cms-config";
import { inspectContent } from "../../src/node/content/validate";

const root = path.resolve(__dirname, "../..");
const dataDir = path.join(root, "data");

/** The top-level field names of a content file, in the order the studio's form has them. */
function fieldOrder(relative: string): string[] {
  const file = `data/${relative}`;
  for (const collection of cmsCollections(dataDir)) {
    if (collection.folder === path.posix.dirname(file)) return collection.fields!.map((f) => f.name);
    const entry = collection.files?.find((f) => f.file === file);
    if (entry) return entry.fields.map((f) => f.name);
  }
  throw new Error(`${file} is not in the studio`);
}

function yamlFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "schemas" ? [] : yamlFiles(full, base);
    return entry.name.endsWith(".yaml") ? [path.relative(base, full).split(path.sep).join("/")] : [];
  });
}

let copy: string;
beforeAll(() => {
  copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-round-trip-")), "data");
  fs.cpSync(dataDir, copy, { recursive: true });
});
afterAll(() => fs.rmSync(path.dirname(copy), { recursive: true, force: true }));

test("every data file written whole by the studio's YAML format keeps its data and passes the content check", () => {
  const files = yamlFiles(dataDir);
  expect(files.length).toBeGreaterThan(0);
  const changed: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(dataDir, file), "utf8");
    const { [SOURCE]: source, ...data } = yamlLines.fromFile(text);
    expect(yamlLines.toFile({ ...data, [SOURCE]: source }, fieldOrder(file))).toBe(text);
    const saved = yamlLines.toFile(data, fieldOrder(file));
    fs.writeFileSync(path.join(copy, file), saved);
    try {
      expect(parse(saved)).toEqual(parse(text));
    } catch {
      changed.push(file);
    }
  }
  expect(changed).toEqual([]);

  // Both report their files as data/…: the warnings compare by file and message (lines may move).
  const original = inspectContent(dataDir);
  const afterSaving = inspectContent(copy);
  expect(afterSaving.problems).toEqual([]);
  const messages = (list: typeof original.warnings) => list.map((w) => `${w.file}: ${w.message}`);
  expect(messages(afterSaving.warnings)).toEqual(messages(original.warnings));
});
