/**
 * The inbox's place: the URL's search params (?id=… for an enquiry, the filters for the list), so an
 * enquiry has a link and Back and Forward move between what was seen. Changes push history entries.
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

export function useRoute(): [Route, (next: Route) => void] {
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onPop = () => setRoute(read());
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);
  const go = useCallback((next: Route) => {
    const href = hrefOf(next);
    if (href !== window.location.pathname + window.location.search) window.history.pushState(null, "", href);
    setRoute(next);
  }, []);
  return [route, go];
}
