/**
 * @jest-environment node
 *
 * A held file is read again only once Gatsby has File nodes for data/ as it is on disk (added and
 * changed files), so that what put it right is there when its new text arrives.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { filesBehind, gatsbyCaughtUp, type FileNode } from "../../plugins/gatsby-plugin-cyrus-content/src/caught-up";

let dataDir: string;
const file = (rel: string) => path.join(dataDir, rel);
const nodeOf = (rel: string): FileNode => ({
  absolutePath: file(rel),
  modifiedTime: fs.statSync(file(rel)).mtime.toJSON(),
});

beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-caught-up-")), "data");
  for (const rel of ["services/a.yaml", "services/images/a.jpg", "schemas/service.schema.json", "services/notes.txt"]) {
    fs.mkdirSync(path.dirname(file(rel)), { recursive: true });
    fs.writeFileSync(file(rel), rel);
  }
});

afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

test("YAML files and images without a File node of their modification time are behind", () => {
  expect(filesBehind(dataDir, [])).toEqual([file("services/a.yaml"), file("services/images/a.jpg")].sort());
  expect(filesBehind(dataDir, [nodeOf("services/a.yaml"), nodeOf("services/images/a.jpg")])).toEqual([]);
  const stale = { ...nodeOf("services/a.yaml"), modifiedTime: new Date(0).toJSON() };
  expect(filesBehind(dataDir, [stale, nodeOf("services/images/a.jpg")])).toEqual([file("services/a.yaml")]);
});

test("a file removed from disk is not waited for", () => {
  const nodes = [nodeOf("services/a.yaml"), nodeOf("services/images/a.jpg")];
  fs.rmSync(file("services/a.yaml"));
  expect(filesBehind(dataDir, nodes)).toEqual([]);
});

test("waits, bounded, until Gatsby has caught up", async () => {
  let nodes: FileNode[] = [nodeOf("services/a.yaml")];
  setTimeout(() => (nodes = [...nodes, nodeOf("services/images/a.jpg")]), 100);
  await expect(gatsbyCaughtUp(dataDir, () => nodes, { interval: 20, timeout: 5000 })).resolves.toBe(true);
  await expect(gatsbyCaughtUp(dataDir, () => [], { interval: 20, timeout: 100 })).resolves.toBe(false);
});
