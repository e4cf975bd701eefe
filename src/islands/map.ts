/**
 * The contact page's map (src/components/views/map-frame.tsx): its frame, a page of another host, is
 * added once the page itself has loaded, so it never competes with the first paint. The server HTML
 * holds it in <noscript>, which shows nothing where scripting is on: its text is the frame's markup.
 */
import { islandReady } from "./island-data";

function addFrames() {
  for (const noscript of document.querySelectorAll("noscript")) {
    const template = document.createElement("template");
    template.innerHTML = noscript.textContent ?? "";
    const frame = template.content.firstElementChild;
    if (frame instanceof HTMLIFrameElement && template.content.childNodes.length === 1) noscript.replaceWith(frame);
  }
  islandReady("map");
}

if (document.readyState === "complete") addFrames();
else window.addEventListener("load", addFrames, { once: true });
