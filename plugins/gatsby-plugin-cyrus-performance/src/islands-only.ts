import fs from "node:fs";
import path from "node:path";
import { INTERNALS, internalChanged } from "./internals";
import { builtPages } from "./pages";

/*
 * The built site's check that no page loads Gatsby's runtime: the site's gatsby-ssr.tsx removes
 * Gatsby's scripts while each page is written (src/script-free.ts) and adds the page's islands. If a
 * Gatsby upgrade wrote its scripts or preloads some other way (a new tag, the scripts slice stitched
 * in after the render), pages would quietly load the whole runtime again: the build stops instead,
 * naming the page and what it found.
 */

/** The folder of the islands under public/, the only scripts a page may load (src/node/islands.ts). */
export const ISLANDS_PREFIX = "/islands/";

// Types a browser runs as code; the rest are data (JSON-LD, the islands' data, speculation rules).
const CODE_TYPES = new Set(["", "module", "text/javascript", "application/javascript"]);

const attribute = (tag: string, name: string) =>
  new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
    .exec(tag)
    ?.slice(1)
    .find((v) => v !== undefined);

/** What in a page's HTML loads code or Gatsby's data other than an island; empty when nothing does. */
export function runtimeIn(html: string): string[] {
  const found: string[] = [];
  for (const [, open = "", text = ""] of html.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)) {
    const type = (attribute(open, "type") ?? "").trim().toLowerCase();
    if (!CODE_TYPES.has(type)) continue;
    const src = attribute(open, "src");
    if (type === "module" && src?.startsWith(ISLANDS_PREFIX) && text.trim() === "") continue;
    found.push(open);
  }
  for (const [link = ""] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = (attribute(link, "rel") ?? "").toLowerCase().split(/\s+/);
    if (!rel.some((r) => r === "preload" || r === "prefetch" || r === "modulepreload")) continue;
    const href = attribute(link, "href") ?? "";
    const as = attribute(link, "as") ?? "";
    if (
      as === "script" ||
      as === "fetch" ||
      rel.includes("modulepreload") ||
      /\.(m?js|json)(\?|$)|\/page-data\//.test(href)
    )
      found.push(link);
  }
  if (html.includes('<!-- slice-start id="_gatsby-scripts')) found.push("Gatsby's scripts slice");
  return found;
}

/** Checks every built page; returns how many pages load islands. The build stops at the first page that loads more. */
export function checkIslandsOnly(publicDir: string, siteStaticDir: string): { pages: number; withIslands: number } {
  const pages = builtPages(publicDir, siteStaticDir);
  if (pages.length === 0)
    throw internalChanged(INTERNALS.postBodyScripts, `${path.basename(publicDir)}/ holds no page`);
  let withIslands = 0;
  for (const file of pages) {
    const html = fs.readFileSync(file, "utf8");
    const found = runtimeIn(html);
    if (found.length > 0)
      throw internalChanged(
        INTERNALS.postBodyScripts,
        `${path.relative(path.dirname(publicDir), file)} loads more than its islands: ${found.join(", ")}`,
      );
    if (html.includes(`src="${ISLANDS_PREFIX}`)) withIslands += 1;
  }
  return { pages: pages.length, withIslands };
}
