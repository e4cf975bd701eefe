/**
 * An island on its component's server HTML, as a built page has it: the HTML React renders at build
 * time in the document, the data the component registered for the island beside it (as gatsby-ssr.tsx
 * writes it), then the island's module run on it (src/islands/<behaviour>.ts). For the components'
 * tests, which check that the island behaves as the component does when React runs it.
 */
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { BehaviourRegistry, type Behaviour, type RegisteredBehaviours } from "../../src/hooks/use-behaviour";

afterEach(() => {
  document.body.innerHTML = "";
  // Jest's fake timers replace `performance` with one without marks.
  if (typeof performance.clearMarks === "function") performance.clearMarks();
});

/** Puts `element`'s server HTML into the document, runs the island of `behaviour`, returns the container. */
export function islandOn(element: ReactElement, behaviour: Behaviour): HTMLElement {
  const registered: RegisteredBehaviours = new Map();
  const container = document.createElement("div");
  container.innerHTML = renderToString(
    <BehaviourRegistry.Provider value={registered}>{element}</BehaviourRegistry.Provider>,
  );
  document.body.append(container);
  if (!registered.has(behaviour)) throw new Error(`the element registers no "${behaviour}"`);
  const data = registered.get(behaviour);
  if (data !== undefined) {
    const script = document.createElement("script");
    script.type = "application/json";
    script.id = `island-data-${behaviour}`;
    script.textContent = JSON.stringify(data);
    document.body.append(script);
  }
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an island runs when its module is loaded
    require(`../../src/islands/${behaviour}`);
  });
  if (
    typeof performance.getEntriesByName === "function" &&
    performance.getEntriesByName(`island:${behaviour}`).length === 0
  )
    throw new Error(`the island of "${behaviour}" did not mark that it took over`);
  return container;
}
