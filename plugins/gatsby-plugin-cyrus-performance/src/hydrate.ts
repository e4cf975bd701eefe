import type { ReactElement } from "react";
import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";

/**
 * Hydrates the server-rendered page inside a transition, so React works in slices of about 5 ms and
 * lets the browser handle input and paint between them instead of running one long task (which
 * Lighthouse counts as Total Blocking Time). A page without server HTML is rendered, as Gatsby's own
 * default does. Used by gatsby-browser.ts (replaceHydrateFunction); src/hydration-check.ts checks
 * after the build that Gatsby still renders the focus wrapper and calls replaceHydrateFunction.
 */
export function hydrateInTransition(element: ReactElement, container: Element): void {
  const focusWrapper = document.getElementById("gatsby-focus-wrapper");
  if (focusWrapper && focusWrapper.children.length > 0) {
    startTransition(() => {
      hydrateRoot(container, element);
    });
  } else {
    createRoot(container).render(element);
  }
}
