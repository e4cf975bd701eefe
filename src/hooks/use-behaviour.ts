import { createContext, useContext } from "react";

/**
 * What a component does in the visitor's browser that its HTML cannot do alone. A page whose
 * components register none ships no script at all (gatsby-ssr.tsx leaves Gatsby's scripts out of its
 * HTML); a page with one keeps them. The menu, the services dropdown and the floating buttons of
 * every page are not here: their script-free forms (details/summary, links and CSS) are complete.
 */
export type Behaviour =
  /** Rotation, pause button, pause on hover and focus: nothing of it works without a script. */
  | "carousel"
  /** The client post (its messages in place, the XSRF header); the plain POST works without. */
  | "enquiry-form"
  /** The map frame is added after the page's load event; <noscript> shows nothing where scripting is on. */
  | "map"
  /**
   * Why Cyrus's cards: CSS alone shows a description on hover and focus, but a tap or Enter that
   * keeps it open, and aria-expanded telling so, are the script's.
   */
  | "reveal-cards";

/** The behaviours of the page being rendered at build time; none (null) in the browser. */
export const BehaviourRegistry = createContext<Set<Behaviour> | null>(null);

/**
 * Declares that the component needs `behaviour` in the browser. At build time it is recorded for the
 * page being rendered (gatsby-ssr.tsx provides the registry); in the browser and in tests it does
 * nothing. Called during render: the server renders each page once, and adding to a set is idempotent.
 */
export function useBehaviour(behaviour: Behaviour): void {
  const registry = useContext(BehaviourRegistry);
  registry?.add(behaviour);
}
