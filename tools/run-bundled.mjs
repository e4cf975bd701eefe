// node tools/run-bundled.mjs <script.ts> [arguments]: runs a TypeScript script from one JavaScript file
// that esbuild bundled (in .check-cache/bundled/), built again only when a file it was made from changed.
// Not in .cache/: a release runs the check before it moves the previous build's .cache into place, and
// the runner of an older release (the one that ships this) cannot move it onto a folder already there.
// `npm run check:content` starts in a tenth of a second this way; through tsx it took most of a
// second before checking anything (its loader, and every module looked up and loaded apart).
// Plain JavaScript on purpose: this file itself needs no compiling.
import { buildSync } from "esbuild";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
// Changing how bundles are made (the options below) makes every bundle stale.
const FORMAT = "1";

export function bundleOf(entry) {
  const rel = path.relative(root, path.resolve(entry));
  const out = path.join(root, ".check-cache/bundled", `${rel.replace(/[\\/]/g, "__").replace(/\.tsx?$/, "")}.cjs`);
  const inputsFile = `${out}.inputs.json`;
  if (!isFresh(inputsFile)) {
    const result = buildSync({
      entryPoints: [path.join(root, rel)],
      absWorkingDir: root,
      bundle: true,
      platform: "node",
      target: "node22",
      format: "cjs",
      outfile: out,
      metafile: true,
      logLevel: "warning",
    });
    const inputs = Object.keys(result.metafile.inputs).map((file) => path.resolve(root, file));
    fs.writeFileSync(inputsFile, JSON.stringify({ format: FORMAT, inputs: inputs.map((file) => [file, stamp(file)]) }));
  }
  return out;
}

/** Every file the bundle was made from is as it was then (the same size and time of change). */
function isFresh(inputsFile) {
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(inputsFile, "utf8"));
  } catch {
    return false;
  }
  return recorded.format === FORMAT && recorded.inputs.every(([file, was]) => stamp(file) === was);
}

function stamp(file) {
  try {
    const stat = fs.statSync(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return "gone";
  }
}

if (process.argv[1] === import.meta.filename) {
  const [entry, ...rest] = process.argv.slice(2);
  if (!entry) {
    console.error("Use: node tools/run-bundled.mjs <script.ts> [arguments]");
    process.exit(2);
  }
  const bundle = bundleOf(entry);
  // The script sees the command line it would have under tsx: node, itself, its arguments.
  process.argv = [process.argv[0], path.resolve(entry), ...rest];
  createRequire(import.meta.url)(bundle);
}
