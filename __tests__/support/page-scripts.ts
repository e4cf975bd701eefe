/**
 * The scripts of a built page and what its HTML shows that needs one, read from the HTML alone (the
 * built-site tests of the site and of the fixture site, and the benchmark's figures in the docs).
 */
import { parseAttributes } from "../../deploy/csp-hashes";

export type ShownBehaviour = "carousel" | "enquiry-form" | "map" | "reveal-cards";

// Types a browser runs as code (the rest are data: JSON-LD, speculation rules, import maps).
const CODE_TYPES = new Set(["", "module", "text/javascript", "application/javascript"]);

export interface ScriptTag {
  open: string;
  id: string | undefined;
  type: string;
  src: string | undefined;
  /** Code the browser runs (inline or from src), not data. */
  executable: boolean;
  text: string;
}

export function scriptTags(html: string): ScriptTag[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => {
    const attributes = parseAttributes(m[1]!);
    const type = (attributes.get("type") ?? "").trim().toLowerCase();
    return {
      open: `<script${m[1]!}>`,
      id: attributes.get("id"),
      type,
      src: attributes.get("src"),
      executable: CODE_TYPES.has(type),
      text: m[2]!,
    };
  });
}

/**
 * What the page shows that does nothing without a script, in alphabetical order: a carousel (it
 * rotates), the enquiry form (its client post), the map (its frame is added after the page's load;
 * the <noscript> copy does not show where scripting is on), Why Cyrus's cards (a tap that keeps a
 * description open, and aria-expanded saying so).
 */
export function shownBehaviours(html: string): ShownBehaviour[] {
  const shown: ShownBehaviour[] = [];
  if (html.includes('aria-roledescription="carousel"')) shown.push("carousel");
  if (/<form\b[^>]*\bmethod="post"/.test(html)) shown.push("enquiry-form");
  if (/<noscript><iframe\b/.test(html)) shown.push("map");
  if (/<li [^>]*data-scripted="false"[^>]*><h2[^>]*><button/.test(html)) shown.push("reveal-cards");
  return shown;
}

/** The addresses of the islands a page loads (its `<script type="module" src>`), in order. */
export const islandSources = (html: string) =>
  scriptTags(html)
    .filter((tag) => tag.type === "module" && tag.src !== undefined)
    .map((tag) => tag.src!);

/** The behaviour of an island's address: /islands/<behaviour>-<hash>.js. */
export const islandBehaviour = (src: string) => /^\/islands\/([a-z-]+)-[A-Z0-9]+\.js$/.exec(src)?.[1];

/** The texts of the page's speculation rules. */
export const speculationRules = (html: string) =>
  scriptTags(html)
    .filter((tag) => tag.type === "speculationrules")
    .map((tag) => tag.text);

/**
 * A page as Gatsby writes it: the head, the React root (`<div id="___gatsby">` with the page and
 * Gatsby's route announcer), and what comes after it in the body (the page's islands, if any).
 */
export function pageAnatomy(html: string): { head: string; body: string; afterBody: string } {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html)?.[1];
  const start = html.indexOf('<div id="___gatsby">');
  const announcer = html.indexOf('<div id="gatsby-announcer"', start);
  const rootEnd = html.indexOf("</div></div>", announcer);
  const bodyEnd = html.lastIndexOf("</body>");
  if (head === undefined || start < 0 || announcer < 0 || rootEnd < 0 || bodyEnd < rootEnd)
    throw new Error("not a page as Gatsby writes it (head, #___gatsby with its announcer, </body>)");
  const end = rootEnd + "</div></div>".length;
  return { head, body: html.slice(start, end), afterBody: html.slice(end, bodyEnd) };
}
