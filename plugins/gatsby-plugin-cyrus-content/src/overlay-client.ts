/**
 * The browser side of the content check (started by develop-client.ts, in the develop bundle only).
 * It listens to the develop server's stream of problems and shows or removes the
 * overlay whenever they change, without a reload. Hidden by its button, the overlay comes back on the
 * next change. EventSource reconnects by itself when `gatsby develop` restarts.
 */
import { EVENTS_PATH, type FeedBody } from "./endpoints";
import { renderOverlay } from "./overlay";

export function listenForProblems(doc: Document = document, Source: typeof EventSource = EventSource): EventSource {
  const source = new Source(EVENTS_PATH);
  let last: string | undefined;
  source.addEventListener("message", (event: MessageEvent<string>) => {
    // A reconnection sends the same problems again: the overlay stays hidden if it was.
    if (event.data === last) return;
    last = event.data;
    const { problems, heldBack } = JSON.parse(event.data) as FeedBody;
    const show = () => renderOverlay(doc, problems, heldBack);
    if (doc.body) show();
    else doc.addEventListener("DOMContentLoaded", show, { once: true });
  });
  return source;
}
