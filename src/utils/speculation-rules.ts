/**
 * The browser's own prefetching, in place of Gatsby's router (gone with the scripts on most pages):
 * a link of the site is fetched when the visitor's pointer rests on it or presses it ("moderate"),
 * and the main menu's links are prerendered sooner ("eager"), so the next page shows at once where
 * the browser supports it (Chromium); elsewhere the rules are ignored and the links are plain links.
 *
 * Why "eager" for the menu: a prerender started on the press itself (what "moderate" does for a quick
 * tap) has not finished at the release, and activating it cost more than a plain load (docs/
 * performance.md, "Click-to-LCP by how the pointer acts"). Chromium starts an eager speculation after a
 * 10 ms hover on desktop (moderate waits 200 ms), so a mouse finds it further along at the click; on a
 * tap it acts as moderate. Not every menu link as the page loads ("immediate"): a phone would pay for
 * five pages it may never open.
 *
 * Only links the page holds are candidates: no visitor's page links the editing studio or the inbox
 * (nor names them: __tests__/site/admin.test.ts), so the rules need not, and do not, name them.
 * The text is the same on every page, so the CSP allows it by one hash (deploy/csp-hashes.ts).
 */
const sitePages = { href_matches: "/*" };

export const SPECULATION_RULES = {
  prerender: [
    {
      source: "document",
      where: { and: [{ selector_matches: "header nav a" }, sitePages] },
      eagerness: "eager",
    },
  ],
  prefetch: [{ source: "document", where: sitePages, eagerness: "moderate" }],
} as const;

/** The rules as the text of `<script type="speculationrules">` (JSON, `<` escaped for the HTML parser). */
export const speculationRulesText = (): string => JSON.stringify(SPECULATION_RULES).replace(/</g, "\\u003c");
