/**
 * @jest-environment node
 *
 * Comments stay within the formatter's width (.prettierrc.json's printWidth): Prettier wraps code but
 * never a comment, so a long comment line is the one kind its check lets through.
 */
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
const width = (JSON.parse(fs.readFileSync(path.join(root, ".prettierrc.json"), "utf8")) as { printWidth: number })
  .printWidth;
const FOLDERS = ["src", "deploy", "tools", "plugins", "admin/src", "admin/scripts", "__tests__"];
const SOURCE = /\.(ts|tsx|mts|mjs|cjs|js)$/;
const SKIPPED = new Set(["node_modules", "public", ".cache"]);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : sourceFiles(full);
    return SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

test(`no comment line of the project's code is wider than ${width} columns`, () => {
  const files = FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)));
  expect(files.length).toBeGreaterThan(100);
  const wide = files.flatMap((file) =>
    fs
      .readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) =>
        /^\s*(\/\/|\/\*|\*)/.test(line) && [...line].length > width
          ? [`${path.relative(root, file)}:${i + 1} (${[...line].length} columns)`]
          : [],
      ),
  );
  expect(wide).toEqual([]);
});
