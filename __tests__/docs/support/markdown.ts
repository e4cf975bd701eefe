/**
 * What the docs' tests read of a Markdown page: its headings and the anchors GitHub makes of them, its
 * links, and its prose (the text outside code). A small reader, not a Markdown parser: the pages are
 * plain CommonMark (ATX headings, fenced code, inline links), and this reads exactly that.
 */
import fs from "node:fs";
import path from "node:path";

export const projectRoot = path.resolve(__dirname, "../../..");

/** The pages a reader meets: README.md and every .md under docs/, as paths from the root ("docs/x.md"). */
export function docPages(root = projectRoot): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".md")) found.push(rel);
    }
  };
  walk("docs");
  return ["README.md", ...found.sort()];
}

export interface Line {
  /** 1-based, as an editor shows it. */
  number: number;
  text: string;
}

/** The lines outside fenced code blocks (``` or ~~~), with their numbers. */
export function linesOutsideCode(markdown: string): Line[] {
  const kept: Line[] = [];
  let fence: string | undefined;
  markdown.split("\n").forEach((text, i) => {
    const marker = /^ {0,3}(`{3,}|~{3,})/.exec(text)?.[1];
    if (marker !== undefined) {
      if (fence === undefined) fence = marker;
      // A fence closes with the same character, at least as many, and nothing after it.
      else if (marker[0] === fence[0] && marker.length >= fence.length && /^ {0,3}[`~]+\s*$/.test(text)) {
        fence = undefined;
      }
      return;
    }
    if (fence === undefined) kept.push({ number: i + 1, text });
  });
  return kept;
}

/** A line without its inline code spans (`...`), which hold neither links nor prose. */
export const withoutCodeSpans = (text: string): string => text.replace(/(`+)[^`]*?\1/g, " ");

export interface Heading extends Line {
  /** The heading's text as written, without its #s. */
  heading: string;
}

export function headingsOf(markdown: string): Heading[] {
  return linesOutsideCode(markdown).flatMap((line) => {
    const m = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line.text);
    return m ? [{ ...line, heading: m[1]! }] : [];
  });
}

/**
 * GitHub's anchor for a heading (the rule of the github-slugger package): the text as rendered (code
 * spans' content kept, a link's text kept, emphasis gone), lower-cased, every character that is not a
 * letter, a digit, a mark, `_`, `-` or a space removed, each space a `-`. No trimming, no collapsing:
 * "A — B" is "a--b".
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`+([^`]*?)`+/g, "$1")
    .replace(/<[^>]+>/g, "");
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor of a page: its headings' (a repeated one gets -1, -2, … as on GitHub) and its HTML ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { heading } of headingsOf(markdown)) {
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const line of linesOutsideCode(markdown)) {
    for (const m of line.text.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

export interface Link extends Line {
  target: string;
}

/** The relative links of a page (inline links, images and reference definitions), outside code. */
export function relativeLinksOf(markdown: string): Link[] {
  return linesOutsideCode(markdown).flatMap((line) => {
    const text = withoutCodeSpans(line.text);
    const targets = [
      // A `\]` is a bracket shown as typed, not a link's end.
      ...[...text.matchAll(/(?<!\\)\]\(\s*<([^>]*)>[^)]*\)/g)].map((m) => m[1]!),
      ...[...text.matchAll(/(?<!\\)\]\(\s*([^)<\s]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
      ...[...(/^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(text)?.slice(1, 2) ?? [])],
    ];
    return targets
      .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//"))
      .map((target) => ({ ...line, target }));
  });
}

/**
 * Where a link from `page` (a path from the root) leads, or why it leads nowhere: a missing file, or an
 * anchor that no heading of the page it names makes.
 */
export function brokenReason(page: string, target: string, root = projectRoot): string | undefined {
  const hash = target.indexOf("#");
  const file = decodeURI(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = file === "" ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
  if (resolved.startsWith("../") || !fs.existsSync(path.join(root, resolved))) return `no file ${resolved}`;
  if (anchor === undefined || !resolved.endsWith(".md")) return undefined;
  const anchors = anchorsOf(fs.readFileSync(path.join(root, resolved), "utf8"));
  return anchors.has(anchor) ? undefined : `no heading of ${resolved} makes #${anchor}`;
}
