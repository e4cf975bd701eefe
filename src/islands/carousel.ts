/**
 * The carousels of a page (src/components/carousel/carousel.tsx renders them): rotation every
 * 2,500 ms, paused while the pointer or keyboard focus is inside, stopped for good by the pause
 * button or when the visitor prefers reduced motion; play resumes it at once, even under the
 * pointer. The slides' live region is polite exactly while nothing rotates.
 */
import type { CarouselIslandData } from "./carousel-data";
import { islandData, islandReady } from "./island-data";

const PAUSE_ICON = "M7 5h3v14H7zM14 5h3v14h-3z";
const PLAY_ICON = "M8 5v14l11-7z";

function carousel(section: HTMLElement, labels: CarouselIslandData, reducedMotion: boolean) {
  const button = section.querySelector<HTMLButtonElement>(":scope > button");
  const icon = button?.querySelector("path");
  const live = section.querySelector<HTMLElement>("[aria-live]");
  const slides = [...section.querySelectorAll<HTMLElement>('[aria-roledescription="slide"]')];
  if (!button || !icon || !live || slides.length === 0) return;
  let current = Math.max(
    0,
    slides.findIndex((slide) => !slide.hidden),
  );
  let playing = !reducedMotion;
  let hovered = false;
  let focused = false;
  let timer: number | undefined;

  const update = () => {
    const rotating = playing && !hovered && !focused && slides.length > 1;
    button.setAttribute("aria-label", playing ? labels.pause : labels.play);
    icon.setAttribute("d", playing ? PAUSE_ICON : PLAY_ICON);
    live.setAttribute("aria-live", rotating ? "off" : "polite");
    slides.forEach((slide, i) => (slide.hidden = i !== current));
    // A slide shows its full time: a change that keeps the rotation going keeps its timer.
    if (!rotating) {
      window.clearTimeout(timer);
      timer = undefined;
    } else if (timer === undefined)
      timer = window.setTimeout(() => {
        timer = undefined;
        current = (current + 1) % slides.length;
        update();
      }, labels.intervalMs);
  };
  const isInside = (e: FocusEvent) => e.relatedTarget instanceof Node && section.contains(e.relatedTarget);

  section.addEventListener("mouseenter", () => {
    hovered = true;
    update();
  });
  section.addEventListener("mouseleave", () => {
    hovered = false;
    update();
  });
  section.addEventListener("focusin", (e) => {
    if (!isInside(e)) {
      focused = true;
      update();
    }
  });
  section.addEventListener("focusout", (e) => {
    if (!isInside(e)) {
      focused = false;
      update();
    }
  });
  button.addEventListener("click", () => {
    if (!playing) {
      hovered = false;
      focused = false;
    }
    playing = !playing;
    update();
  });
  update();
}

const labels = islandData<CarouselIslandData>("carousel");
if (labels) {
  const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  for (const section of document.querySelectorAll<HTMLElement>('section[aria-roledescription="carousel"]'))
    carousel(section, labels, reducedMotion);
  islandReady("carousel");
}
