import { createContext, useContext } from "react";

/**
 * What a component does in the visitor's browser that its HTML cannot do alone. Each one is a small
 * ES module of its own, src/islands/<behaviour>.ts, which the built page loads only when one of its
 * components registered the behaviour (gatsby-ssr.tsx); no page loads Gatsby's runtime. The menu,
 * the services dropdown and the floating buttons of every page are not here: their script-free forms
 * (details/summary, links and CSS) are complete.
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

export const BEHAVIOURS: readonly Behaviour[] = ["carousel", "enquiry-form", "map", "reveal-cards"];

/**
 * The behaviours of the page being rendered at build time, each with the data its island needs that
 * the page's HTML does not hold (texts shown only once scripted), or undefined; none (null) in the
 * browser.
 */
export type RegisteredBehaviours = Map<Behaviour, unknown>;
export const BehaviourRegistry = createContext<RegisteredBehaviours | null>(null);

/**
 * Declares that the component needs `behaviour` in the browser, with `data` for its island (JSON:
 * the page carries it in a <script type="application/json"> beside the island's tag). At build time
 * it is recorded for the page being rendered (gatsby-ssr.tsx provides the registry); in the browser
 * and in tests it does nothing. Called during render: the server renders each page once, and
 * recording the same behaviour again is idempotent. Two components of one page that register one
 * behaviour with different data stop the build: one island reads one set of data.
 */
export function useBehaviour(behaviour: Behaviour, data?: unknown): void {
  const registry = useContext(BehaviourRegistry);
  if (!registry) return;
  if (registry.has(behaviour) && JSON.stringify(registry.get(behaviour)) !== JSON.stringify(data))
    throw new Error(`two components of one page register "${behaviour}" with different data for its island`);
  registry.set(behaviour, data);
}
