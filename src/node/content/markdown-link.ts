/**
 * Where a link in an added page's text may lead: a page of the site (a path from the site's root,
 * /contact), a website (https:// or http://), an e-mail address (mailto:) or a telephone number (tel:).
 * Everything else is refused by name, javascript: first: it would run whatever follows it in the
 * visitor's browser. A site path is only recognised here; the content check resolves it against the
 * site's routes.
 */
export type LinkVerdict = { kind: "site"; path: string } | { kind: "external" } | { kind: "refused"; message: string };

const allowed =
  "a link leads to a page of the site, written from the site's root (/contact), a website (https://…), " +
  "an e-mail address (mailto:…) or a telephone number (tel:…)";

export function judgeLink(href: string): LinkVerdict {
  const shown = `"${readable(href)}"`;
  if (href === "")
    return refused(`a link without an address ([words]()): write the address between the round brackets; ${allowed}`);
  if (href.startsWith("//")) {
    return refused(`the link ${shown} starts with two slashes: write a website's address in full, https:${href}`);
  }
  // The path alone: what the site's routes are made of (a #place or ?query is the page's own business).
  if (href.startsWith("/")) return { kind: "site", path: href.replace(/[?#].*$/, "") || "/" };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  if (scheme === "https" || scheme === "http") {
    if (/^https?:\/\/[^/?#]/i.test(href)) return { kind: "external" };
    return refused(`the link ${shown} names no website: write the address in full, https://example.com/page`);
  }
  if (scheme === "mailto" || scheme === "tel") {
    if (href.length > scheme.length + 1) return { kind: "external" };
    return refused(
      `the link ${shown} has nothing after "${scheme}:": write the ${scheme === "tel" ? "number" : "address"} after it`,
    );
  }
  if (scheme === "javascript") {
    return refused(
      `the link ${shown} would run a program in the visitor's browser, which a page's text never does: ${allowed}`,
    );
  }
  if (scheme)
    return refused(`the link ${shown} begins with "${scheme}:", which a page's text does not link to: ${allowed}`);
  if (/^[#?]/.test(href)) return refused(`the link ${shown} leads nowhere on its own: ${allowed}`);
  const fromRoot = `/${href.replace(/^(\.{1,2}\/)+/, "")}`;
  return refused(
    `the link ${shown} is relative, so where it leads would depend on the page it is on: write the page's path from the site's root, starting with /: ${fromRoot}`,
  );
}

function refused(message: string): LinkVerdict {
  return { kind: "refused", message };
}

/** markdown-it percent-encodes what it keeps (é as %C3%A9): the editor typed the letter. */
function readable(href: string): string {
  let text = href;
  try {
    text = decodeURI(href);
  } catch {
    // Not valid percent-encoding: shown as it is.
  }
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
