import { useSyncExternalStore } from "react";

const noSubscription = () => () => undefined;

/**
 * False in the server render and in the render that hydrates it, true in every render after that
 * (and at once in components first mounted in the browser, e.g. after a link inside the site).
 * Components render their script-free form while it is false, so that the server's HTML works
 * before and without JavaScript and hydration finds exactly that HTML; React renders again with
 * true right after hydrating, and the scripted behaviour takes over.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
