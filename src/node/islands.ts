/**
 * The islands: each behaviour's module (src/islands/<behaviour>.ts) bundled with esbuild into
 * public/islands/ under a content-hashed name (served immutable, like Gatsby's own bundles), minified,
 * as an ES module. Built before Gatsby renders the pages, whose HTML names them (gatsby-ssr.tsx reads
 * the manifest written here), in place of Gatsby's runtime, which no page loads.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { BEHAVIOURS, type Behaviour } from "../hooks/use-behaviour";
import { DEFAULT_ENDPOINT } from "../components/enquiry-form/send-enquiry";

/** Where the islands are served from, under the site's root. */
export const ISLANDS_DIR = "islands";
/**
 * The public path of each behaviour's island. In .cache/, not public/: the build reads it, visitors
 * never need it.
 */
export const islandsManifestPath = (root = process.cwd()) => path.join(root, ".cache", "cyrus-islands.json");

export type IslandsManifest = Record<Behaviour, string>;

/**
 * The browsers the islands are written for: those that run ES modules and Speculation Rules' peers
 * (the site's browserslist has no older one that runs scripts at all, and `type="module"` leaves the
 * rest on the script-free page).
 */
const TARGET = ["es2020"];

export async function buildIslands({ root = process.cwd(), publicDir = path.join(root, "public") } = {}) {
  const outdir = path.join(publicDir, ISLANDS_DIR);
  // A previous build's islands (other hashes) would be published with no page naming them.
  fs.rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(BEHAVIOURS.map((b) => [b, path.join(root, "src", "islands", `${b}.ts`)])),
    outdir,
    entryNames: "[name]-[hash]",
    bundle: true,
    splitting: false,
    format: "esm",
    minify: true,
    target: TARGET,
    platform: "browser",
    legalComments: "none",
    metafile: true,
    logLevel: "silent",
    // As Gatsby inlines GATSBY_* into its bundle: the enquiry's backend is fixed at build time.
    define: {
      "process.env.GATSBY_ENQUIRY_API": JSON.stringify(process.env.GATSBY_ENQUIRY_API || DEFAULT_ENDPOINT),
    },
  });
  const manifest = {} as IslandsManifest;
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    const behaviour = BEHAVIOURS.find(
      (b) => meta.entryPoint === path.relative(root, path.join(root, "src", "islands", `${b}.ts`)),
    );
    if (behaviour)
      manifest[behaviour] = `/${path.relative(publicDir, path.join(root, output)).split(path.sep).join("/")}`;
  }
  const missing = BEHAVIOURS.filter((b) => !manifest[b]);
  if (missing.length > 0) throw new Error(`esbuild wrote no island for ${missing.join(", ")}`);
  fs.mkdirSync(path.dirname(islandsManifestPath(root)), { recursive: true });
  fs.writeFileSync(islandsManifestPath(root), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** The manifest the last buildIslands wrote; the page renderer reads it. */
export function readIslandsManifest(root = process.cwd()): IslandsManifest {
  return JSON.parse(fs.readFileSync(islandsManifestPath(root), "utf8")) as IslandsManifest;
}
