/**
 * The inbox's place: the URL's search params (?id=… for an enquiry, the filters for the list), so an
 * enquiry has a link and Back and Forward move between what was seen. Changes push history entries;
 * an enquiry's entry opened from the list is marked so (its history state), for backToList.
 */
import { useCallback, useEffect, useState } from "react";
import { FILTER_KEYS, type Filters } from "./api";

export interface Route {
  id?: string;
  /** "answers": the saved answers and signature page (./saved-answers). */
  view?: "answers";
  filters: Filters;
}

function read(): Route {
  const params = new URLSearchParams(window.location.search);
  const filters: Filters = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const view = params.get("view") === "answers" ? "answers" : undefined;
  return { id: params.get("id") ?? undefined, view, filters };
}

export function hrefOf(route: Route): string {
  const params = new URLSearchParams();
  if (route.id) params.set("id", route.id);
  if (route.view) params.set("view", route.view);
  for (const key of FILTER_KEYS) if (route.filters[key]) params.set(key, route.filters[key]!);
  const text = params.toString();
  return `/inbox/${text ? `?${text}` : ""}`;
}

interface Mark {
  /** The entry before this one is the inbox's list: the one this enquiry was opened from. */
  openedFromList?: boolean;
}

/** The entry shown is the list (no enquiry, nor another page of the inbox). */
function onList(): boolean {
  const params = new URLSearchParams(window.location.search);
  return !params.has("id") && !params.has("view");
}

/**
 * Back to the list the enquiry was opened from: the previous history entry when that is the list (with
 * the filters it had); else (the enquiry's own link, in a new tab or from another site) the list with
 * the filters in the enquiry's address, none for the e-mail's bare link. Never history.back() out of
 * the inbox, nor to a new tab's blank page.
 */
export function backToList(route: Route, go: (next: Route) => void): void {
  if ((window.history.state as Mark | null)?.openedFromList) window.history.back();
  else go({ filters: route.filters });
}

export function useRoute(): [Route, (next: Route) => void] {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onPop = () => setRoute(read());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  const go = useCallback((next: Route) => {
    const href = hrefOf(next);
    const mark: Mark | null = next.id && onList() ? { openedFromList: true } : null;
    if (href !== window.location.pathname + window.location.search) window.history.pushState(mark, "", href);
    setRoute(next);
  }, []);
  return [route, go];
}
