import type { Behaviour } from "../hooks/use-behaviour";

/**
 * The data a page carries for the island of `behaviour` (gatsby-ssr.tsx writes it in a
 * <script type="application/json" id="island-data-<behaviour>"> before the island's tag); undefined
 * when the page has none.
 */
export function islandData<T>(behaviour: Behaviour): T | undefined {
  const text = document.getElementById(`island-data-${behaviour}`)?.textContent;
  return text ? (JSON.parse(text) as T) : undefined;
}

/**
 * Marks that the island of `behaviour` has taken over its elements: the browser tests wait for it
 * (as they waited for Gatsby's onInitialClientRender), and performance tools show it.
 */
export function islandReady(behaviour: Behaviour): void {
  // Jest's fake timers stand in a `performance` without marks.
  if (typeof performance.mark === "function") performance.mark(`island:${behaviour}`);
}
