import { useState } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * Whether a component renders its scripted form: false in the server HTML and while hydrating it,
 * true from the render in which useHydrated() turns true (at once in a component first mounted in
 * the browser).
 *
 * `takeOver` runs once, inside that render: React has not committed it yet, so the page still shows
 * the script-free form as the visitor left it (a menu opened, a list hovered before the scripts came).
 * It sets the component's state from there, so the scripted form starts where the visitor is and not
 * from the initial state. It reads the DOM during render on purpose: state set by an effect of the
 * hydration would come in a later, lower-priority render than this one (React re-renders for
 * useHydrated() at once), which would first show the initial state, and focus would be lost with
 * the element swapped out.
 */
export function useScriptTakeover(takeOver: () => void): boolean {
  const hydrated = useHydrated();
  const [scripted, setScripted] = useState(hydrated);
  if (hydrated && !scripted) {
    setScripted(true);
    takeOver();
  }
  return scripted;
}
