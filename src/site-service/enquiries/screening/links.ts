/**
 * Links and markup in what a visitor typed. Links are found by linkify-it (markdown-it's link
 * finder: where a link ends beside punctuation and brackets, hosts in any script), with a
 * narrower idea of a link than its own, for text that is never shown as HTML:
 *   - a link with a scheme (http://, https://, ftp://), or starting with www.;
 *   - a bare domain only with a path, query or fragment (seo-boost.com/order, bit.ly/3xKq9Zp).
 *     A bare name.tld alone is not counted: degrees, initials and file names look the same
 *     (M.Sc, J.Li, S.Ai, README.md), and it leads nowhere unless someone types it in.
 * E-mail addresses are not links here: an enquiry names addresses all the time. linkify-it finds no
 * link straight after "=" (a query string's value, BBCode's [url=…], which has a signal of its own).
 */
import { LinkifyIt } from "linkify-it";

const linkify = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: false, fuzzyIP: false })
  .add("mailto:", null)
  // Protocol-relative "//host" is for markup, not for text a person types.
  .add("//", null);

export interface Link {
  /** As it appears in the text. */
  text: string;
  /** Its host in lower case, IDN hosts as punycode (as a browser would resolve them). */
  host: string;
}

export function findLinks(text: string): Link[] {
  const links: Link[] = [];
  for (const match of linkify.match(text) ?? []) {
    if (match.schema === "" && !/^www\./i.test(match.raw) && !/[/?#]/.test(match.raw)) continue;
    let host: string;
    try {
      host = new URL(match.url).hostname.toLowerCase();
    } catch {
      continue; // linkify-it found something no URL parser accepts: not a link anyone can follow
    }
    links.push({ text: match.raw, host });
  }
  return links;
}

/** <a href=…> (any case, any quoting, attributes before href). */
const HTML_LINK = /<a\s[^<>]*?\bhref\s*=/i;
/** [url=…], [url]…[/url], [link=…]: the links of forum markup. */
const BBCODE_LINK = /\[(?:url|link)(?:=[^\]]*)?\]/i;
/**
 * An HTML tag: <b>, </a>, <a href="…">, <br/>. Written strictly (a tag name, then attributes), so
 * that "Priya <priya@example.in>" or "a < b > c" are not markup.
 */
const HTML_TAG = /<\/?[a-z][a-z0-9]*(?:\s+[a-z][\w:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>=`]+))?)*\s*\/?>/i;
/** A BBCode tag pair ([b]…[/b]) or a tag with a value ([url=…]); a lone "[CRA]" is not markup. */
const BBCODE_TAG = /\[([a-z]+)(?:=[^\]]*)?\][^]*?\[\/\1\]|\[[a-z]+=[^\]\s][^\]]*\]/i;

export const hasHtmlLink = (text: string): boolean => HTML_LINK.test(text);
export const hasBbcodeLink = (text: string): boolean => BBCODE_LINK.test(text);
export const hasMarkup = (text: string): boolean => HTML_TAG.test(text) || BBCODE_TAG.test(text);
