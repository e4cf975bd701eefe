/**
 * @jest-environment node
 *
 * tools/run-bundled.mjs (how `npm run check:content` starts quickly): the script runs with its
 * arguments, and a change to any file it imports is in the next run (the bundle is made again).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
let dir: string;
let bundles: string[];
beforeEach(() => {
  // Inside the project, as the scripts it runs are (a bundle is named after the script's path).
  fs.mkdirSync(path.join(root, ".cache"), { recursive: true });
  dir = fs.mkdtempSync(path.join(root, ".cache", "run-bundled-test-"));
  bundles = [];
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const bundle of bundles) for (const file of [bundle, `${bundle}.inputs.json`]) fs.rmSync(file, { force: true });
});

function run(entry: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ["tools/run-bundled.mjs", entry, ...args], {
    cwd: root,
    encoding: "utf8",
  });
  const name = path.relative(root, entry).replace(/[\\/]/g, "__").replace(/\.ts$/, ".cjs");
  bundles.push(path.join(root, ".check-cache/bundled", name));
  return result;
}

test("the script runs with its arguments, and a change to a file it imports is in the next run", () => {
  const entry = path.join(dir, "main.ts");
  const part = path.join(dir, "part.ts");
  fs.writeFileSync(
    entry,
    'import { word } from "./part";\nconsole.log(`${word} ${process.argv.slice(2).join(" ")}`);\n',
  );
  fs.writeFileSync(part, 'export const word: string = "before";\n');
  expect(run(entry, "a", "b")).toMatchObject({ status: 0, stdout: "before a b\n", stderr: "" });
  expect(run(entry, "c")).toMatchObject({ status: 0, stdout: "before c\n" });

  fs.writeFileSync(part, 'export const word: string = "after!";\n'); // the same size: the time of change tells
  expect(run(entry)).toMatchObject({ status: 0, stdout: "after! \n" });
});
