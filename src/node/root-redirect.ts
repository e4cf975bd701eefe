import type { Actions, GatsbyNode } from "gatsby";

/**
 * "/" lands on /home everywhere, as the product notes ask: the page src/pages/index.tsx forwards by itself (script,
 * meta refresh, link) on any host, and this redirect is for hosts that apply Gatsby's redirects.
 * `force`: such a host (Netlify, through gatsby-adapter-netlify's `301!`) would otherwise serve the
 * page's index.html first and never reach the redirect.
 */
export const ROOT_REDIRECT = { fromPath: "/", toPath: "/home", isPermanent: true, force: true } as const;

export function createRootRedirect(actions: Pick<Actions, "createRedirect">): void {
  actions.createRedirect(ROOT_REDIRECT);
}

/**
 * Gatsby warns "There are routes that match both page and redirect" for "/" on every build, and its
 * "the redirect will not work" is not so here: the page and the redirect both stay (above). The line
 * printed after it says so, so that nobody goes looking for a mistake.
 */
export const ROOT_REDIRECT_EXPLAINED =
  'The warning above about "/" is expected: "/" is both a page and a redirect to /home on purpose. ' +
  "The page sends visitors on to /home by itself (with or without JavaScript) on any host, and hosts " +
  "that apply Gatsby's redirects use the redirect, which is marked to come first. Either way / lands " +
  "on /home: there is nothing to do.";

/** The first API Gatsby runs after it wrote out the redirects (and printed that warning). */
export const explainRootRedirect: GatsbyNode["onPostBootstrap"] = ({ getNodesByType, reporter }) => {
  if (getNodesByType("SitePage").some((page) => page.path === ROOT_REDIRECT.fromPath)) {
    reporter.info(ROOT_REDIRECT_EXPLAINED);
  }
};
