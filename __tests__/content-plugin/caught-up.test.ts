/**
 * @jest-environment node
 *
 * A held file is read again only once Gatsby has caught up with data/ as it is on disk: every YAML
 * file made into nodes (or held back) at its current text, every image with a File node, so that what
 * put the held file right is there when its new text arrives.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  fileNodesBehind,
  filesBehind,
  type Decided,
  type FileNode,
} from "../../plugins/gatsby-plugin-cyrus-content/src/caught-up";

let dataDir: string;
const file = (rel: string) => path.join(dataDir, rel);
const mtimeOf = (rel: string) => fs.statSync(file(rel)).mtime.toJSON();
const nodeOf = (rel: string): FileNode => ({ absolutePath: file(rel), modifiedTime: mtimeOf(rel) });
/** The plugin decided on each YAML file as it is on disk, for the File node of its modification time. */
const decidedAsOnDisk = (abs: string): Decided | undefined =>
  fs.existsSync(abs)
    ? { text: fs.readFileSync(abs, "utf8"), modifiedTime: fs.statSync(abs).mtime.toJSON() }
    : undefined;

beforeEach(() => {
  dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-caught-up-")), "data");
  for (const rel of ["services/a.yaml", "services/images/a.jpg", "schemas/service.schema.json", "services/notes.txt"]) {
    fs.mkdirSync(path.dirname(file(rel)), { recursive: true });
    fs.writeFileSync(file(rel), rel);
  }
});

afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

const allNodes = () => [nodeOf("services/a.yaml"), nodeOf("services/images/a.jpg")];

test("caught up: every YAML file decided at its text for its File node, every image with a File node", () => {
  expect(filesBehind(dataDir, allNodes(), decidedAsOnDisk)).toEqual([]);
});

test("a YAML file with a File node but no decision yet is behind: its nodes are not made", () => {
  expect(filesBehind(dataDir, allNodes(), () => undefined)).toEqual([file("services/a.yaml")]);
});

test("a YAML file decided at another text, or for another File node, is behind", () => {
  const decided = decidedAsOnDisk(file("services/a.yaml"))!;
  expect(filesBehind(dataDir, allNodes(), () => ({ ...decided, text: "slug: old\n" }))).toEqual([
    file("services/a.yaml"),
  ]);
  // Removed and added again with the same text: a new File node, not decided on yet.
  expect(filesBehind(dataDir, allNodes(), () => ({ ...decided, modifiedTime: new Date(0).toJSON() }))).toEqual([
    file("services/a.yaml"),
  ]);
});

test("files without a File node are behind; an image with one is not, whatever its time", () => {
  expect(filesBehind(dataDir, [], decidedAsOnDisk)).toEqual(
    [file("services/a.yaml"), file("services/images/a.jpg")].sort(),
  );
  const image = { ...nodeOf("services/images/a.jpg"), modifiedTime: new Date(0).toJSON() };
  expect(filesBehind(dataDir, [nodeOf("services/a.yaml"), image], decidedAsOnDisk)).toEqual([]);
});

test("a file removed from disk is not waited for; schemas and other files are not content", () => {
  const nodes = allNodes();
  fs.rmSync(file("services/a.yaml"));
  expect(filesBehind(dataDir, nodes, () => undefined)).toEqual([]);
});

test("a File node made again at the same mtime with another digest is behind until it is decided on", () => {
  // As when the plugin gives Gatsby a save its watcher missed (src/file-nodes.ts): same mtime, new digest.
  const decided = { ...decidedAsOnDisk(file("services/a.yaml"))!, contentDigest: "digest of the empty file" };
  const made = { ...nodeOf("services/a.yaml"), internal: { contentDigest: "digest of the saved file" } };
  const nodes = [made, nodeOf("services/images/a.jpg")];
  expect(filesBehind(dataDir, nodes, () => decided)).toEqual([file("services/a.yaml")]);
  expect(filesBehind(dataDir, nodes, () => ({ ...decided, contentDigest: "digest of the saved file" }))).toEqual([]);
});

test("images: false looks at the YAML files only", () => {
  expect(filesBehind(dataDir, [nodeOf("services/a.yaml")], decidedAsOnDisk, { images: false })).toEqual([]);
  expect(filesBehind(dataDir, [nodeOf("services/a.yaml")], decidedAsOnDisk)).toEqual([file("services/images/a.jpg")]);
});

test("from Gatsby's File nodes alone: a YAML file whose node has changed since the plugin decided on it", () => {
  const dataDir = path.resolve("/site/data");
  const file = (name: string, modifiedTime: string, contentDigest: string) => ({
    absolutePath: path.join(dataDir, name),
    modifiedTime,
    internal: { contentDigest },
  });
  const decided = new Map([
    [path.join(dataDir, "services/a.yaml"), { text: "", modifiedTime: "t1", contentDigest: "d1" }],
    [path.join(dataDir, "services/b.yaml"), { text: "", modifiedTime: "t1", contentDigest: "d1" }],
  ]);
  const nodes = [
    file("services/a.yaml", "t1", "d1"),
    file("services/b.yaml", "t2", "d2"),
    file("services/c.yaml", "t1", "d1"),
    file("services/images/c.jpg", "t1", "d1"),
    file("schemas/service.schema.yaml", "t1", "d1"),
  ];
  expect(fileNodesBehind(dataDir, nodes, (abs) => decided.get(abs))).toEqual([
    path.join(dataDir, "services/b.yaml"),
    path.join(dataDir, "services/c.yaml"),
  ]);
});
