/**
 * The browser side of the content check (started by develop-client.ts, in the develop bundle only).
 * It listens to the develop server's stream of problems and shows or removes the
 * overlay whenever they change (the check's warnings too), without a reload. Hidden by its button, the overlay comes
 * back on the
 * next change; once the problems are fixed, a notice says the page is updating until its new data
 * arrives (updating-notice.ts). EventSource reconnects by itself when `gatsby develop` restarts.
 */
import { EVENTS_PATH, type FeedBody } from "./endpoints";
import { renderOverlay } from "./overlay";
import { renderUpdating, type QueryEvents } from "./updating-notice";

/** `events`: Gatsby's develop event bus, which says when new query data arrived (the page's window's). */
export function listenForProblems(
  doc: Document = document,
  Source: typeof EventSource = EventSource,
  events: () => QueryEvents | undefined = () => (doc.defaultView as { ___emitter?: QueryEvents } | null)?.___emitter,
): EventSource {
  const source = new Source(EVENTS_PATH);
  let last: string | undefined;
  let hadProblems = false;
  source.addEventListener("message", (event: MessageEvent<string>) => {
    // A reconnection sends the same problems again: the overlay stays hidden if it was.
    if (event.data === last) return;
    last = event.data;
    const { problems, heldBack, warnings = [] } = JSON.parse(event.data) as FeedBody;
    const fixed = hadProblems && problems.length === 0;
    hadProblems = problems.length > 0;
    // The warnings left after a fix come once the page has its new data.
    const show = () =>
      fixed
        ? renderUpdating(doc, events(), undefined, () => renderOverlay(doc, [], [], warnings))
        : renderOverlay(doc, problems, heldBack, warnings);
    if (doc.body) show();
    else doc.addEventListener("DOMContentLoaded", show, { once: true });
  });
  return source;
}
