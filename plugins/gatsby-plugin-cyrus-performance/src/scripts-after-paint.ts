import fs from "node:fs";
import path from "node:path";
import { loaderFunction } from "./compile-loader";
import { INTERNALS, internalChanged } from "./internals";
import { builtPages } from "./pages";

/*
 * Gatsby ends every page with `<script src="/webpack-runtime-….js" async></script>` and the same for
 * React (framework) and its runtime (app): about 70 KB compressed. The browser fetches and runs
 * them before its first paint, although the page is complete server HTML. On a slow connection they
 * then share the bandwidth with the page's main image, and Lighthouse's Largest Contentful Paint
 * counts them. This step replaces those tags, after the build, with a small inline loader
 * (src/loader.ts) that adds the same scripts once the first frame is painted (or at the load event,
 * whichever comes first): mobile LCP about 0.34 s earlier (docs/performance.md, measured with and
 * without it). Hydration then starts a frame later; nothing else changes. Gatsby writes
 * the tags in the scripts slice (public/_gatsby/slices/_gatsby-scripts-1.html) and copies it into
 * each page between slice markers; only the pages' copies are changed, so the step can run again
 * after any rebuild: a page rewritten by an earlier build (an incremental build leaves the pages it
 * did not render as they were) gets the current loader, for the same scripts.
 *
 * The loader also starts each script in a task of its own, so that no single one blocks input for
 * long (Total Blocking Time): see src/loader.ts.
 *
 * A page whose components need nothing in the browser has none of Gatsby's scripts (src/script-free.ts
 * left them out while Gatsby wrote it: neither the scripts slice nor the page-path script): it is
 * left as it is.
 */

const SLICE_START = '<!-- slice-start id="_gatsby-scripts-1" -->';
const SLICE_END = '<!-- slice-end id="_gatsby-scripts-1" -->';
const SLICE = /(<!-- slice-start id="_gatsby-scripts-1" -->)([\s\S]*?)(<!-- slice-end id="_gatsby-scripts-1" -->)/;
const ASYNC_SCRIPT = /<script src="([^"<>]+)" async><\/script>/g;
// The loader as a page holds it (today's and any earlier one); its argument list starts with the scripts it adds.
const LOADER = /<script id="gatsby-scripts-after-paint">[\s\S]*?\.apply\(null,(\[[\s\S]*?\])\)<\/script>/;

/** The inline loader for these script addresses. */
export function loaderScript(sources: readonly string[]): string {
  const args = JSON.stringify([sources]).replace(/</g, "\\u003c");
  return `<script id="gatsby-scripts-after-paint">(${loaderFunction()}).apply(null,${args})</script>`;
}

/** The addresses of Gatsby's `<script async>` tags in this HTML, in order. */
function asyncScripts(html: string): string[] {
  return [...html.matchAll(ASYNC_SCRIPT)].map((m) => m[1] as string);
}

/** The addresses a loader written earlier adds, in order (earlier loaders had a second argument). */
function loaderSources(loader: RegExpExecArray): string[] {
  return (JSON.parse(loader[1] as string) as [string[]])[0];
}

/** The scripts slice of a page: [whole, start marker, content, end marker]; the build stops without one. */
function scriptsSlice(html: string, page: string): [string, string, string, string] {
  const slice = SLICE.exec(html);
  if (!slice) throw internalChanged(INTERNALS.scriptsSlice, `${page} has no ${SLICE_START} … ${SLICE_END}`);
  return slice as unknown as [string, string, string, string];
}

/** The scripts a page's slice loads first: from the loader an earlier build wrote, or Gatsby's tags. */
export function firstScripts(html: string, page = "the page"): string[] {
  const [, , body] = scriptsSlice(html, page);
  const earlier = LOADER.exec(body);
  const sources = earlier ? loaderSources(earlier) : asyncScripts(body);
  if (sources.length === 0) {
    throw internalChanged(
      INTERNALS.asyncScripts,
      `the scripts slice of ${page} holds no <script src="…" async></script> tag (nor a loader of an earlier build)`,
    );
  }
  return sources;
}

/**
 * The page with its first scripts loaded after paint; null when the current loader is there
 * already. The build stops for a page without Gatsby's scripts slice, or without scripts in it.
 */
export function deferFirstScripts(html: string, page = "the page"): string | null {
  const [whole, start, body, end] = scriptsSlice(html, page);
  const earlier = LOADER.exec(body);
  if (earlier) {
    const current = loaderScript(loaderSources(earlier));
    return earlier[0] === current
      ? null
      : html.replace(whole, () => start + body.replace(earlier[0], () => current) + end);
  }
  const sources = firstScripts(html, page);
  const changed = `${start}${body.replace(ASYNC_SCRIPT, "")}${loaderScript(sources)}${end}`;
  return html.replace(whole, () => changed);
}

const PAGE_PATH_SCRIPT = '<script id="gatsby-script-loader">';

/** A page written without any of Gatsby's scripts (src/script-free.ts). */
export const isScriptFree = (html: string) => !html.includes(SLICE_START) && !html.includes(PAGE_PATH_SCRIPT);

/** Rewrites the pages in public/ (after the build); the build stops at a page Gatsby wrote otherwise. */
export function loadScriptsAfterPaint(
  publicDir = path.resolve("public"),
  siteStaticDir?: string,
): { pages: number; rewritten: number; scriptFree: number } {
  const pages = builtPages(publicDir, siteStaticDir);
  if (pages.length === 0) throw internalChanged(INTERNALS.scriptsSlice, `${publicDir} holds no page (.html)`);
  const present = new Set<string>();
  let rewritten = 0;
  let scriptFree = 0;
  for (const file of pages) {
    const page = path.relative(path.dirname(publicDir), file);
    const html = fs.readFileSync(file, "utf8");
    if (isScriptFree(html)) {
      scriptFree += 1;
      continue;
    }
    // The loader would only load 404s: a script it names must be in public/.
    for (const source of firstScripts(html, page)) {
      if (present.has(source)) continue;
      if (!fs.existsSync(path.join(publicDir, source)))
        throw internalChanged(
          INTERNALS.asyncScripts,
          `${page} loads ${source} first, which is not in ${path.basename(publicDir)}/`,
        );
      present.add(source);
    }
    const result = deferFirstScripts(html, page);
    if (result !== null) {
      fs.writeFileSync(file, result);
      rewritten += 1;
    }
  }
  return { pages: pages.length, rewritten, scriptFree };
}
