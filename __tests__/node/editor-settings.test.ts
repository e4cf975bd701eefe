/**
 * @jest-environment node
 *
 * The hints an editor sees in VS Code come from .vscode/settings.json, which maps every content file
 * to its schema (the studio drops first-line schema comments, so nothing else does it), and from the
 * YAML extension .vscode/extensions.json recommends. A content file added without its mapping, or a
 * mapping to a schema that is not there, fails here.
 */
import fs from "node:fs";
import path from "node:path";
import { contentFiles } from "../../src/node/content/content-files";

const root = path.resolve(__dirname, "../..");
/** VS Code's JSON with whole-line comments, as these two files have them. */
const read = (file: string) =>
  JSON.parse(fs.readFileSync(path.join(root, file), "utf8").replace(/^\s*\/\/.*$/gm, "")) as Record<string, unknown>;

test("every content file is mapped to its schema, and every mapped schema exists", () => {
  const schemas = read(".vscode/settings.json")["yaml.schemas"] as Record<string, string[]>;
  for (const source of contentFiles) {
    expect(schemas[`./data/schemas/${source.schema}.schema.json`]).toContain(`data/${source.file}`);
  }
  for (const schema of Object.keys(schemas)) expect(fs.existsSync(path.join(root, schema))).toBe(true);
  expect(Object.values(schemas).flat()).toHaveLength(contentFiles.length);
});

test("the YAML extension that reads those schemas is recommended", () => {
  expect(read(".vscode/extensions.json").recommendations).toContain("redhat.vscode-yaml");
});
