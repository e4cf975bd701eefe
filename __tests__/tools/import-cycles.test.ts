/**
 * @jest-environment node
 *
 * No two modules of the project's own code import each other, directly or round a longer circle,
 * type-only imports included: a circle makes a module's exports undefined while the other loads
 * (which one depends on who is imported first), and it means two rooms that cannot be read apart.
 * TypeScript's own parser and module resolution read the imports, as tsc would.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(__dirname, "../..");
const FOLDERS = ["src", "deploy", "tools", "plugins", "admin/src", "admin/scripts"];
const SOURCE = /\.(ts|tsx|mts)$/;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "__tests__" ? [] : sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const options: ts.CompilerOptions = {
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  module: ts.ModuleKind.ESNext,
  allowImportingTsExtensions: true,
};

/** Each file's imports of other project files (not packages), as paths from the root. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true);
    const targets = importedFiles
      .filter(({ fileName }) => fileName.startsWith("."))
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined && !target.includes("node_modules"))
      .map((target) => path.relative(root, target));
    graph.set(path.relative(root, file), targets);
  }
  return graph;
}

/** Every circle, each once, as the files round it (depth-first search, one stack). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

test("the project's modules import one another without a circle", () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)));
  const graph = importGraph(files);
  // The walk really reads imports: the service's entry reaches its parts.
  expect(graph.get("src/site-service/index.ts")).toContain("src/site-service/service/server.ts");
  expect(circles(graph).map((circle) => circle.join(" -> "))).toEqual([]);
});

test("a circle is found, a type-only import included", () => {
  const graph = new Map([
    ["a.ts", ["b.ts"]],
    ["b.ts", ["c.ts"]],
    ["c.ts", ["a.ts"]],
    ["d.ts", ["a.ts"]],
  ]);
  expect(circles(graph)).toEqual([["a.ts", "b.ts", "c.ts", "a.ts"]]);
  const { importedFiles } = ts.preProcessFile(
    'import type { X } from "./x";\nexport type { Y } from "./y";',
    true,
    true,
  );
  expect(importedFiles.map((f) => f.fileName)).toEqual(["./x", "./y"]);
});
