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
 * whichever comes first). Hydration then starts a frame later; nothing else changes. Gatsby writes
 * the tags in the scripts slice (public/_gatsby/slices/_gatsby-scripts-1.html) and copies it into
 * each page between slice markers; only the pages' copies are changed, so the step can run again
 * after any rebuild: a page rewritten by an earlier build (an incremental build leaves the pages it
 * did not render as they were) gets the current loader, for the same scripts.
 *
 * The loader also spreads the start-up work over several tasks, so that no single one blocks input
 * for long (Total Blocking Time): see src/loader.ts.
 */

const SLICE_START = '<!-- slice-start id="_gatsby-scripts-1" -->';
const SLICE_END = '<!-- slice-end id="_gatsby-scripts-1" -->';
const SLICE = /(<!-- slice-start id="_gatsby-scripts-1" -->)([\s\S]*?)(<!-- slice-end id="_gatsby-scripts-1" -->)/;
const ASYNC_SCRIPT = /<script src="([^"<>]+)" async><\/script>/g;
const CHUNK_GLOBAL = /\bwebpackChunk[A-Za-z0-9_$]+/;
// webpack's JSONP runtime: `chunkLoadingGlobal.push = webpackJsonpCallback.bind(null, chunkLoadingGlobal.push.bind(…))`.
const CHUNK_QUEUE_PUSH = /\.push\s*=\s*[\w$]+\.bind\(\s*null\s*,\s*[\w$.]+\.push\.bind\(/;
// The loader as a page holds it (today's and any earlier one); its last argument list names the scripts it adds.
const LOADER = /<script id="gatsby-scripts-after-paint">[\s\S]*?\.apply\(null,(\[[\s\S]*?\])\)<\/script>/;

/** The name of webpack's chunk queue (`self.webpackChunk<name>`) in the runtime's source, if any. */
export function chunkGlobalOf(runtimeSource: string): string | null {
  return CHUNK_GLOBAL.exec(runtimeSource)?.[0] ?? null;
}

/**
 * The chunk queue's name from webpack's runtime (the first of Gatsby's scripts); the build stops if
 * the runtime has no queue the loader can push its "after-paint" chunk into.
 */
export function chunkQueueOfRuntime(runtimeSource: string, runtimeFile: string): string {
  const chunkGlobal = chunkGlobalOf(runtimeSource);
  if (!chunkGlobal)
    throw internalChanged(
      INTERNALS.chunkQueue,
      `${runtimeFile}, the first of Gatsby's scripts, names no self.webpackChunk… queue`,
    );
  if (!CHUNK_QUEUE_PUSH.test(runtimeSource)) {
    throw internalChanged(
      INTERNALS.chunkQueue,
      `${runtimeFile} does not replace the queue's push with its chunk loader (queue.push = callback.bind(null, queue.push.bind(queue)))`,
    );
  }
  return chunkGlobal;
}

/**
 * The inline loader for these script addresses. `chunkGlobal` names webpack's chunk queue; through
 * it, a callback pushed as a chunk of its own (id "after-paint") initialises the modules registered
 * so far. Without it the scripts still run one by one.
 */
export function loaderScript(sources: readonly string[], chunkGlobal: string | null = null): string {
  const args = JSON.stringify([sources, chunkGlobal]).replace(/</g, "\\u003c");
  return `<script id="gatsby-scripts-after-paint">(${loaderFunction()}).apply(null,${args})</script>`;
}

/** The addresses of Gatsby's `<script async>` tags in this HTML, in order. */
function asyncScripts(html: string): string[] {
  return [...html.matchAll(ASYNC_SCRIPT)].map((m) => m[1] as string);
}

/** The addresses a loader written earlier adds, in order. */
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
export function deferFirstScripts(html: string, chunkGlobal: string | null = null, page = "the page"): string | null {
  const [whole, start, body, end] = scriptsSlice(html, page);
  const earlier = LOADER.exec(body);
  if (earlier) {
    const current = loaderScript(loaderSources(earlier), chunkGlobal);
    return earlier[0] === current
      ? null
      : html.replace(whole, () => start + body.replace(earlier[0], () => current) + end);
  }
  const sources = firstScripts(html, page);
  const changed = `${start}${body.replace(ASYNC_SCRIPT, "")}${loaderScript(sources, chunkGlobal)}${end}`;
  return html.replace(whole, () => changed);
}

/** Rewrites the pages in public/ (after the build); the build stops at a page Gatsby wrote otherwise. */
export function loadScriptsAfterPaint(
  publicDir = path.resolve("public"),
  siteStaticDir?: string,
): { pages: number; rewritten: number } {
  const pages = builtPages(publicDir, siteStaticDir);
  if (pages.length === 0) throw internalChanged(INTERNALS.scriptsSlice, `${publicDir} holds no page (.html)`);
  let chunkGlobal: string | undefined;
  let rewritten = 0;
  for (const file of pages) {
    const page = path.relative(path.dirname(publicDir), file);
    const html = fs.readFileSync(file, "utf8");
    if (chunkGlobal === undefined) {
      const runtime = firstScripts(html, page)[0] as string;
      const runtimeFile = path.join(publicDir, runtime);
      if (!fs.existsSync(runtimeFile)) {
        throw internalChanged(
          INTERNALS.asyncScripts,
          `the first script of ${page}, ${runtime} (webpack's runtime), is not in ${path.basename(publicDir)}/`,
        );
      }
      chunkGlobal = chunkQueueOfRuntime(
        fs.readFileSync(runtimeFile, "utf8"),
        path.relative(path.dirname(publicDir), runtimeFile),
      );
    }
    const result = deferFirstScripts(html, chunkGlobal, page);
    if (result !== null) {
      fs.writeFileSync(file, result);
      rewritten += 1;
    }
  }
  return { pages: pages.length, rewritten };
}
