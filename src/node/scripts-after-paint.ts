import fs from "node:fs";
import path from "node:path";
import type { GatsbyNode } from "gatsby";

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
 * step can run again after any rebuild.
 */

const SLICE = /(<!-- slice-start id="_gatsby-scripts-1" -->)([\s\S]*?)(<!-- slice-end id="_gatsby-scripts-1" -->)/;
const ASYNC_SCRIPT = /<script src="([^"<>]+)" async><\/script>/g;

/** The inline loader for these script addresses. */
export function loaderScript(sources: readonly string[]): string {
  const list = JSON.stringify(sources).replace(/</g, "\\u003c");
  return (
    `<script id="gatsby-scripts-after-paint">(function(s){var d=0;function l(){if(d)return;d=1;` +
    `s.forEach(function(u){var e=document.createElement("script");e.src=u;e.async=true;document.body.appendChild(e)})}` +
    `if(window.requestAnimationFrame)requestAnimationFrame(function(){setTimeout(l,0)});else setTimeout(l,0);` +
    `window.addEventListener("load",l)})(${list})</script>`
  );
}

/** The page with its first scripts loaded after paint; null when there is nothing to change. */
export function deferFirstScripts(html: string): string | null {
  const slice = SLICE.exec(html);
  if (!slice) return null;
  const [whole, start, body, end] = slice as unknown as [string, string, string, string];
  const sources = [...body.matchAll(ASYNC_SCRIPT)].map((m) => m[1] as string);
  if (sources.length === 0) return null;
  const changed = `${start}${body.replace(ASYNC_SCRIPT, "")}${loaderScript(sources)}${end}`;
  return html.replace(whole, () => changed);
}

function htmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "_gatsby" || entry.name === "static" ? [] : htmlFiles(full);
    return entry.name.endsWith(".html") ? [full] : [];
  });
}

/** Rewrites the pages in public/; warns when Gatsby's tags were found in none of them. */
export const onPostBuild: GatsbyNode["onPostBuild"] = ({ reporter }) => {
  const files = htmlFiles(path.resolve("public"));
  let changed = 0;
  let done = 0;
  for (const file of files) {
    const html = fs.readFileSync(file, "utf8");
    const result = deferFirstScripts(html);
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
};
