import fs from "node:fs";
import path from "node:path";
import type { Reporter } from "gatsby";

/*
 * Gatsby ends every page with `<script src="/webpack-runtime-….js" async></script>` and the same for
 * React (framework) and its runtime (app): about 70 KB compressed. The browser fetches and runs
 * them before its first paint, although the page is complete server HTML. On a slow connection they
 * then share the bandwidth with the page's main image, and Lighthouse's Largest Contentful Paint
 * counts them. This step replaces those tags, after the build, with a small inline loader that adds
 * the same scripts once the first frame is painted (or at the load event, whichever comes first: a
 * tab opened in the background paints no frames). Hydration then starts a frame later; nothing else
 * changes. Gatsby writes the tags in the scripts slice (public/_gatsby/slices/_gatsby-scripts-1.html)
 * and copies it into each page between slice markers; only the pages' copies are changed, so the
 * step can run again after any rebuild: a page rewritten by an earlier build (an incremental build
 * leaves the pages it did not render as they were) gets the current loader, for the same scripts.
 *
 * The loader also spreads the start-up work over several tasks, so that no single one blocks input
 * for long (Total Blocking Time): the scripts are preloaded one per task, so that they download
 * together, then run one after another, each in its own task, and before the last one (app, whose
 * arrival starts Gatsby) React's modules are initialised in a task of their own instead of inside
 * Gatsby's start.
 */

const SLICE = /(<!-- slice-start id="_gatsby-scripts-1" -->)([\s\S]*?)(<!-- slice-end id="_gatsby-scripts-1" -->)/;
const ASYNC_SCRIPT = /<script src="([^"<>]+)" async><\/script>/g;
const CHUNK_GLOBAL = /\bwebpackChunk[A-Za-z0-9_$]+/;
// The loader as a page holds it; its last argument list names the scripts it adds.
const LOADER = /<script id="gatsby-scripts-after-paint">[\s\S]*?\.apply\(null,(\[[\s\S]*?\])\)<\/script>/;

/** The name of webpack's chunk queue (`self.webpackChunk<name>`) in the runtime's source, if any. */
export function chunkGlobalOf(runtimeSource: string): string | null {
  return CHUNK_GLOBAL.exec(runtimeSource)?.[0] ?? null;
}

/**
 * The inline loader for these script addresses. `chunkGlobal` names webpack's chunk queue; through
 * it, a callback pushed as a chunk of its own (id "after-paint") initialises the modules registered
 * so far. Without it the scripts still run one by one.
 */
export function loaderScript(sources: readonly string[], chunkGlobal: string | null = null): string {
  const args = JSON.stringify([sources, chunkGlobal]).replace(/</g, "\\u003c");
  return (
    `<script id="gatsby-scripts-after-paint">(function(s,g){var d=0;` +
    // Runs the modules the loaded chunks registered; webpack caches them for the app's start.
    `function w(){var q=g&&self[g];if(!q||!q.push)return;var i=[];` +
    `q.forEach(function(c){for(var k in c[1])i.push(k)});` +
    `try{q.push([["after-paint"],{},function(r){i.forEach(function(k){r(k)})}])}catch(x){}}` +
    `function n(j){if(j>=s.length)return;var e=document.createElement("script");e.src=s[j];e.async=true;` +
    `e.onload=e.onerror=function(){setTimeout(function(){if(j===s.length-2)w();n(j+1)},0)};document.body.appendChild(e)}` +
    // One preload per task as well: starting a fetch costs several ms of main thread in Lighthouse's traces.
    `function p(j){if(j>=s.length)return n(0);var e=document.createElement("link");` +
    `e.rel="preload";e.as="script";e.href=s[j];document.head.appendChild(e);setTimeout(function(){p(j+1)},0)}` +
    `function l(){if(d)return;d=1;p(0)}` +
    `if(window.requestAnimationFrame)requestAnimationFrame(function(){setTimeout(l,0)});else setTimeout(l,0);` +
    `window.addEventListener("load",l)}).apply(null,${args})</script>`
  );
}

/** The addresses of Gatsby's `<script async>` tags in this HTML, in order. */
function asyncScripts(html: string): string[] {
  return [...html.matchAll(ASYNC_SCRIPT)].map((m) => m[1] as string);
}

/** The addresses a loader written earlier adds, in order. */
function loaderSources(loader: RegExpExecArray): string[] {
  return (JSON.parse(loader[1] as string) as [string[]])[0];
}

/**
 * The page with its first scripts loaded after paint; null when there is nothing to change (no
 * scripts slice, or the current loader is there already).
 */
export function deferFirstScripts(html: string, chunkGlobal: string | null = null): string | null {
  const slice = SLICE.exec(html);
  if (!slice) return null;
  const [whole, start, body, end] = slice as unknown as [string, string, string, string];
  const earlier = LOADER.exec(body);
  if (earlier) {
    const current = loaderScript(loaderSources(earlier), chunkGlobal);
    return earlier[0] === current ? null : html.replace(whole, () => start + body.replace(earlier[0], () => current) + end);
  }
  const sources = asyncScripts(body);
  if (sources.length === 0) return null;
  const changed = `${start}${body.replace(ASYNC_SCRIPT, "")}${loaderScript(sources, chunkGlobal)}${end}`;
  return html.replace(whole, () => changed);
}

function htmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "_gatsby" || entry.name === "static" ? [] : htmlFiles(full);
    return entry.name.endsWith(".html") ? [full] : [];
  });
}

/** The chunk queue's name, read from the first script of the page's slice (webpack's runtime). */
function chunkGlobalOfPage(html: string, publicDir: string): string | null | undefined {
  const body = SLICE.exec(html)?.[2] ?? "";
  const loader = LOADER.exec(body);
  const first = (loader ? loaderSources(loader) : asyncScripts(body))[0];
  if (!first) return undefined;
  const file = path.join(publicDir, first);
  return fs.existsSync(file) ? chunkGlobalOf(fs.readFileSync(file, "utf8")) : null;
}

/** Rewrites the pages in public/ (after the build); warns when Gatsby's tags were found in none of them. */
export function loadScriptsAfterPaint(reporter: Reporter, publicDir = path.resolve("public")): void {
  const files = htmlFiles(publicDir);
  let chunkGlobal: string | null | undefined;
  let changed = 0;
  let done = 0;
  for (const file of files) {
    const html = fs.readFileSync(file, "utf8");
    if (chunkGlobal === undefined) chunkGlobal = chunkGlobalOfPage(html, publicDir);
    const result = deferFirstScripts(html, chunkGlobal);
    if (result !== null) {
      fs.writeFileSync(file, result);
      changed += 1;
    } else if (html.includes('id="gatsby-scripts-after-paint"')) {
      done += 1;
    }
  }
  if (changed + done === 0) {
    reporter.warn("scripts-after-paint: found none of Gatsby's <script async> tags in public/*.html; pages load them as Gatsby wrote them");
  } else {
    reporter.info(`Scripts load after the first paint in ${changed + done} pages (${changed} rewritten now)`);
  }
}
