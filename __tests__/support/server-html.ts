/**
 * A component's server HTML put into the document as the browser receives it, and its hydration,
 * for tests of what works before and without JavaScript and of the hand-over to scripts. Call
 * `serverHtmlHarness()` at the top of a test file: it cleans up after each test.
 */
import type { ReactElement } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { act } from "@testing-library/react";

export function serverHtmlHarness() {
  // React reports a hydration mismatch (and any other render problem) with console.error.
  let consoleError: jest.SpyInstance;
  let root: Root | null = null;
  beforeEach(() => {
    consoleError = jest.spyOn(console, "error");
  });
  afterEach(() => {
    act(() => root?.unmount());
    root = null;
    document.body.innerHTML = "";
    consoleError.mockRestore();
  });

  return {
    /** Puts the server HTML of `element` into the document and returns its container. */
    serverHtml(element: ReactElement): HTMLElement {
      const container = document.createElement("div");
      container.innerHTML = renderToString(element);
      document.body.append(container);
      return container;
    },
    /** Hydrates the server HTML in `container`; any error React reports fails the test. */
    hydrate(container: HTMLElement, element: ReactElement): void {
      act(() => {
        root = hydrateRoot(container, element);
      });
      expect(consoleError).not.toHaveBeenCalled();
    },
  };
}
