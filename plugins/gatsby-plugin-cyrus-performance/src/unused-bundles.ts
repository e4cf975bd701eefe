import fs from "node:fs";
import path from "node:path";
import { INTERNALS, internalChanged } from "./internals";

/*
 * What Gatsby writes into public/ for its browser runtime, which no page loads any more (the site's
 * pages load only their islands, src/islands-only.ts): webpack's bundles at the top of public/ (the
 * runtime, framework, app, each page component's chunk and the shared chunks, with their .map and
 * .LICENSE.txt files, and those of earlier builds, which Gatsby never deletes), webpack's stats and
 * chunk map, and Partytown's library. They are removed after the build so that they are not
 * deployed. Each build writes them again before it needs them: webpack emits every bundle missing
 * from disk, Gatsby writes the stats and chunk map in every build before rendering the pages (which
 * read the stats), and copies Partytown before bootstrap. page-data/ stays: Gatsby's next
 * incremental build renders pages from the page data and static query results in public/ it does not
 * write again, and the release runner reads the build's id from page-data/app-data.json.
 */

/** webpack's browser output: Gatsby names every bundle <name>-<contenthash>.js at the top of public/. */
const BUNDLE = /\.js(?:\.map|\.LICENSE\.txt)?(?:\.br|\.gz)?$/;
const WEBPACK_FILES = ["webpack.stats.json", "chunk-map.json"];
const PARTYTOWN = "~partytown";

export interface Removed {
  files: number;
  bytes: number;
}

const fromSiteStatic = (siteStaticDir: string, name: string) => fs.existsSync(path.join(siteStaticDir, name));

function sizeOf(file: string): { files: number; bytes: number } {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return { files: 1, bytes: stat.size };
  return fs
    .readdirSync(file)
    .map((name) => sizeOf(path.join(file, name)))
    .reduce((a, b) => ({ files: a.files + b.files, bytes: a.bytes + b.bytes }), { files: 0, bytes: 0 });
}

/** Removes Gatsby's runtime files from public/ (never one the site's static/ folder holds); returns what went. */
export function removeGatsbyBundles(publicDir: string, siteStaticDir: string): Removed {
  const doomed = fs
    .readdirSync(publicDir, { withFileTypes: true })
    .filter((entry) =>
      entry.isDirectory() ? entry.name === PARTYTOWN : BUNDLE.test(entry.name) || WEBPACK_FILES.includes(entry.name),
    )
    .map((entry) => entry.name)
    .filter((name) => !fromSiteStatic(siteStaticDir, name));
  const removed: Removed = { files: 0, bytes: 0 };
  for (const name of doomed) {
    const full = path.join(publicDir, name);
    const { files, bytes } = sizeOf(full);
    fs.rmSync(full, { recursive: true, force: true });
    removed.files += files;
    removed.bytes += bytes;
  }
  return removed;
}

const SCRIPT = /\.m?js$/;

/**
 * Every script file in public/ that no HTML file in public/ names (as a `src` or `href` path from
 * the root), but the site's own files from static/: what would be deployed and never loaded.
 */
export function unnamedScripts(publicDir: string, siteStaticDir: string): string[] {
  const files = fs
    .readdirSync(publicDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(publicDir, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"));
  const named = new Set<string>();
  for (const file of files.filter((f) => f.endsWith(".html"))) {
    const html = fs.readFileSync(path.join(publicDir, file), "utf8");
    for (const [, url = ""] of html.matchAll(/\s(?:src|href)=["']?([^"'\s>]+)/gi)) {
      const pathname = url.split(/[?#]/)[0]!;
      named.add(pathname.startsWith("/") ? pathname : `/${path.posix.join(path.posix.dirname(file), pathname)}`);
    }
  }
  return files.filter((f) => SCRIPT.test(f) && !named.has(`/${f}`) && !fromSiteStatic(siteStaticDir, f)).sort();
}

/** Removes Gatsby's bundles, then stops the build if public/ still holds a script no page loads. */
export function removeUnusedBundles(publicDir: string, siteStaticDir: string): Removed {
  const removed = removeGatsbyBundles(publicDir, siteStaticDir);
  const left = unnamedScripts(publicDir, siteStaticDir);
  if (left.length > 0)
    throw internalChanged(
      INTERNALS.browserBundles,
      `${path.basename(publicDir)}/ holds scripts that no page loads: ${left.slice(0, 10).join(", ")}${left.length > 10 ? ` and ${left.length - 10} more` : ""}`,
    );
  return removed;
}
