/**
 * New enquiries and others' changes without a reload: the API's change mark (GET changes), asked
 * every 10 s and when the tab comes back into view; a new mark bumps the number returned, which the
 * list and counts depend on. One request at a time, none while the tab is hidden.
 */
import { useEffect, useState } from "react";
import { ApiError, get } from "./api";

export const POLL_MS = 10_000;

export function useChanges(onSignedOut: () => void): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let mark: string | undefined;
    let busy = false;
    const ask = async () => {
      if (busy || document.visibilityState === "hidden") return;
      busy = true;
      try {
        const answer = await get<{ mark: string }>("changes");
        if (mark !== undefined && answer.mark !== mark) setTick((n) => n + 1);
        mark = answer.mark;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) onSignedOut();
      } finally {
        busy = false;
      }
    };
    void ask();
    const timer = window.setInterval(ask, POLL_MS);
    const onVisible = () => void ask();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [onSignedOut]);
  return tick;
}
