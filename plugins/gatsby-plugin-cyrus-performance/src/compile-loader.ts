/**
 * src/loader.ts as the inline script pages hold: one function expression, minified by esbuild
 * (a dependency of the site, pinned) when the post-build step first needs it, then kept for the
 * rest of the process. The same esbuild version gives the same bytes, so a rebuild leaves
 * unchanged pages unchanged (and their CSP hashes with them).
 */
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { transformSync } from "esbuild";
import { PLUGIN } from "./internals";

// From the site's root, Gatsby's working directory, like public/ and .cache/: in the build this module
// runs from Gatsby's compiled copy of gatsby-node.ts (.cache/compiled/), where Parcel's __dirname
// does not point to this folder.
export const LOADER_SOURCE = path.resolve("plugins", PLUGIN, "src", "loader.ts");
// What the inline script may run in: the loader's own syntax is lowered to this.
const TARGET = "es2015";
// esbuild's minified module: the function, then its export under a minified name.
const MODULE = /^(function ([\w$]+)\([\w$]+\)\{[\s\S]*\})export\{\2 as default\};\n?$/;

/** Minifies the loader's TypeScript source to `function name(sources){…}`. */
export function compileLoader(source: string): string {
  const { code } = transformSync(source, {
    loader: "ts",
    format: "esm",
    target: TARGET,
    minify: true,
    legalComments: "none",
  });
  const fn = MODULE.exec(code)?.[1];
  const problem = (what: string) =>
    new Error(
      `${PLUGIN}: src/loader.ts must compile to one self-contained function of (sources), its default export: ${what}. esbuild wrote: ${code}`,
    );
  if (!fn) throw problem("esbuild's output is not one function and its export");
  try {
    // Parses only as a single function expression: anything beside the function breaks the parentheses.
    new vm.Script(`(${fn})`);
  } catch (error) {
    throw problem(String(error));
  }
  // The function goes inside a <script> element: nothing in it may end that element early.
  if (/<\/script|<!--/i.test(fn)) throw problem("it contains </script or <!--");
  return fn;
}

let compiled: string | undefined;

/** The minified loader function (compiled once per process). */
export function loaderFunction(): string {
  if (compiled === undefined) {
    if (!fs.existsSync(LOADER_SOURCE))
      throw new Error(
        `${PLUGIN}: the page loader's source ${LOADER_SOURCE} is missing (run Gatsby from the site's root)`,
      );
    compiled = compileLoader(fs.readFileSync(LOADER_SOURCE, "utf8"));
  }
  return compiled;
}
