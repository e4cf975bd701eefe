/**
 * Between a passing check and the page's new data: the check passes within a second of the save, but
 * Gatsby runs the queries again and sends the page its new data seconds later (up to about 11 s in
 * develop). Without a word on screen the old text looked final; this small notice takes the overlay's
 * place until the new data arrives.
 */
import { OVERLAY_ID } from "./overlay";

/** Gatsby's develop runtime's event bus (window.___emitter, a mitt): it says when new query data arrived. */
export interface QueryEvents {
  on(type: string, handler: () => void): void;
  off(type: string, handler: () => void): void;
}

/** What Gatsby's dev-loader emits once a page's, or a component's, new data is in. */
const RESULTS = ["pageQueryResult", "staticQueryResult"] as const;
export const UPDATING_TEXT = "No problems left: updating the page…";
/** A fix that changes nothing this page shows brings it no data: the notice goes after this all the same. */
export const UPDATING_LIMIT_MS = 15_000;

const STYLE = `
:host { all: initial; }
p {
  position: fixed; top: 0.75rem; right: 0.75rem; z-index: 2147483647; margin: 0;
  padding: 0.5rem 0.9rem; background: #1b1b1f; color: #f3f3f3; border-left: 4px solid #3fb950;
  border-radius: 4px; box-shadow: 0 0.25rem 1rem rgb(0 0 0 / 35%);
  font: 15px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
`;

/**
 * Shows "updating the page" in the overlay's place (replacing it) until `events` says new data arrived,
 * or `limitMs` passed, and then runs `after` (the warnings left, if any). A later overlay replaces it
 * in turn, and `after` is not run. Returns its host element.
 */
export function renderUpdating(
  doc: Document,
  events: QueryEvents | undefined,
  limitMs: number = UPDATING_LIMIT_MS,
  after: () => void = () => undefined,
): HTMLElement {
  doc.getElementById(OVERLAY_ID)?.remove();
  const host = doc.createElement("div");
  host.id = OVERLAY_ID;
  const root = host.attachShadow({ mode: "open" });
  const style = doc.createElement("style");
  style.textContent = STYLE;
  const notice = doc.createElement("p");
  notice.setAttribute("role", "status");
  notice.textContent = UPDATING_TEXT;
  root.append(style, notice);
  doc.body.append(host);

  const done = () => {
    clearTimeout(timer);
    for (const type of RESULTS) events?.off(type, done);
    if (!host.isConnected) return; // an overlay has replaced it already
    host.remove();
    after();
  };
  const timer = setTimeout(done, limitMs);
  for (const type of RESULTS) events?.on(type, done);
  return host;
}
