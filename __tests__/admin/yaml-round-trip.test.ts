/**
 * @jest-environment node
 *
 * Every content file saved by the studio comes out of Decap's own YAML format (decap-cms-core's
 * formats/yaml.ts, from admin/'s packages, bundled as the studio bundles it): read as Decap reads it,
 * written back with the field order the studio passes. The data must stay identical, the comments
 * Decap drops must not matter, and the copy of data/ so saved must pass the content check with the
 * same warnings (so every image path still names its image).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSync } from "esbuild";
import { parse } from "yaml";
import { cmsCollections } from "../../src/node/content/cms-config";
import { inspectContent } from "../../src/node/content/validate";

const root = path.resolve(__dirname, "../..");
const dataDir = path.join(root, "data");

interface DecapYaml {
  fromFile(content: string): object;
  toFile(data: object, sortedKeys?: string[], comments?: Record<string, string>): string;
}

/** Decap's YAML format, from the studio's own package and its own `yaml` (1.x). */
function decapYaml(): DecapYaml {
  const { outputFiles } = buildSync({
    entryPoints: [path.join(root, "admin/node_modules/decap-cms-core/src/formats/yaml.ts")],
    absWorkingDir: path.join(root, "admin"),
    bundle: true,
    platform: "node",
    format: "cjs",
    write: false,
    logLevel: "silent",
  });
  const module = { exports: {} as { default: DecapYaml } };
  new Function("module", "exports", "require", outputFiles[0]!.text)(module, module.exports, require);
  return module.exports.default;
}

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

test("every data file saved through Decap's YAML writer keeps its data and passes the content check", () => {
  const decap = decapYaml();
  const files = yamlFiles(dataDir);
  expect(files.length).toBeGreaterThan(0);
  const changed: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(dataDir, file), "utf8");
    const saved = decap.toFile(decap.fromFile(text), fieldOrder(file));
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
