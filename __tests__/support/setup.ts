import "@testing-library/jest-dom";
import { TextDecoder, TextEncoder } from "node:util";

// jsdom has no TextEncoder, which React's server renderer needs (tests render server HTML, then hydrate it).
if (typeof globalThis.TextEncoder === "undefined") Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom implements neither matchMedia nor scrollTo; components read both.
function installMatchMedia(): void {
  Object.defineProperty(window, "matchMedia", {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// Node-environment suites (build and server code) have no window.
if (typeof window !== "undefined") {
  installMatchMedia();
  window.scrollTo = jest.fn() as unknown as typeof window.scrollTo;
  beforeEach(() => {
    installMatchMedia();
  });
}
