/**
 * @jest-environment node
 *
 * `npm run check:lockfile`: the committed lockfile passes, and a lockfile holding a version below a
 * listed minimum fails, naming the package, its place in the tree and the advisory.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const script = path.resolve(__dirname, "../../tools/check-lockfile.ts");

function check(args: string[] = []) {
  const run = spawnSync(process.execPath, ["--import", "tsx", script, ...args], { encoding: "utf8" });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cyrus-lockfile-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function lockfile(packages: Record<string, { version: string }>) {
  const file = path.join(dir, `lock-${Object.keys(packages).length}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({ name: "x", lockfileVersion: 3, packages: { "": { name: "x" }, ...packages } }),
  );
  return file;
}

test("the committed package-lock.json holds no version below a listed minimum", () => {
  const { code, out, err } = check();
  expect(err).toBe("");
  expect(code).toBe(0);
  expect(out).toMatch(/none below the \d+ minimums/);
});

test("a lockfile with the vulnerable versions Gatsby brings fails, naming each copy", () => {
  const file = lockfile({
    "node_modules/serialize-javascript": { version: "5.0.1" },
    "node_modules/@graphql-codegen/core/node_modules/lodash": { version: "4.17.23" },
    "node_modules/lodash": { version: "4.18.1" },
    "node_modules/path-to-regexp": { version: "0.1.12" },
    "node_modules/cookie": { version: "0.5.0" },
    "node_modules/external-editor/node_modules/tmp": { version: "0.0.33" },
  });
  const { code, err } = check(["--lock", file]);
  expect(code).toBe(1);
  expect(err).toContain("5 packages");
  expect(err).toContain("serialize-javascript@5.0.1 (node_modules/serialize-javascript) is below 7.0.5");
  expect(err).toContain("lodash@4.17.23 (node_modules/@graphql-codegen/core/node_modules/lodash) is below 4.18.1");
  expect(err).toContain("path-to-regexp@0.1.12");
  expect(err).toContain("cookie@0.5.0");
  expect(err).toContain("tmp@0.0.33 (node_modules/external-editor/node_modules/tmp) is below 0.2.4");
  expect(err).not.toContain("lodash@4.18.1");
  expect(err).toContain("GHSA-5c6j-r48x-rmvq");
});

test("a rule for one release line leaves the other lines alone", () => {
  const file = lockfile({
    "node_modules/path-to-regexp": { version: "8.4.0" },
    "node_modules/router/node_modules/path-to-regexp": { version: "6.3.0" },
    "node_modules/cookie": { version: "1.0.2" },
  });
  expect(check(["--lock", file]).code).toBe(0);
  const older = lockfile({ "node_modules/express/node_modules/path-to-regexp": { version: "0.1.7" } });
  const { code, err } = check(["--lock", older]);
  expect(code).toBe(1);
  expect(err).toContain("path-to-regexp@0.1.7 (node_modules/express/node_modules/path-to-regexp) is below 0.1.13");
});

test("a malformed list of minimums is reported, not taken as a pass", () => {
  const list = path.join(dir, "bad-minimums.json");
  fs.writeFileSync(list, JSON.stringify({ minimums: [{ package: "lodash", minimum: "four" }] }));
  const { code, err } = check(["--minimums", list]);
  expect(code).toBe(2);
  expect(err).toContain('minimums[0] (lodash): "minimum" must be a version');
});
