import { useEffect, useState, type FocusEvent } from "react";
import { Picture } from "../content/picture";
import { useBehaviour } from "../../hooks/use-behaviour";
import type { CarouselIslandData } from "../../islands/carousel-data";
import type { CarouselLabels, ImageWithAlt } from "../../types/content";
import { fill } from "../../utils/text";
import * as styles from "./carousel.module.css";

export interface CarouselProps {
  /** Accessible name of the carousel region. */
  label: string;
  slides: readonly ImageWithAlt[];
  labels: CarouselLabels;
  /** Time each slide shows while rotating (spec: 2500 ms). */
  intervalMs?: number;
  /** Below the fold (contact page): every slide loads lazily, none competes with the page's LCP. */
  lazy?: boolean;
}

/**
 * Auto-rotating slideshow following the WAI-ARIA carousel pattern. Rotation pauses while the
 * pointer or keyboard focus is inside, and stops for good with the pause button or when the
 * visitor prefers reduced motion; pressing play resumes it at once, even under the pointer.
 */
export function Carousel({ label, slides, labels, intervalMs = 2500, lazy = false }: CarouselProps) {
  // The play label shows only once scripted, so its island (src/islands/carousel.ts) gets it as data.
  useBehaviour("carousel", { play: labels.play, pause: labels.pause, intervalMs } satisfies CarouselIslandData);
  const [current, setCurrent] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const total = slides.length;
  const rotating = playing && !hovered && !focused && total > 1;

  useEffect(() => {
    // Known only in the browser, so the server HTML shows the default (playing) state.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a browser-only preference, read once after hydration
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) setPlaying(false);
  }, []);

  useEffect(() => {
    if (!rotating) return undefined;
    const timer = window.setTimeout(() => setCurrent((i) => (i + 1) % total), intervalMs);
    return () => window.clearTimeout(timer);
  }, [rotating, current, total, intervalMs]);

  const togglePlaying = () => {
    if (!playing) {
      setHovered(false);
      setFocused(false);
    }
    setPlaying(!playing);
  };
  const isInside = (e: FocusEvent<HTMLElement>) =>
    e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget);

  return (
    <section
      className={styles.carousel}
      aria-roledescription="carousel"
      aria-label={label}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={(e) => {
        if (!isInside(e)) setFocused(true);
      }}
      onBlur={(e) => {
        if (!isInside(e)) setFocused(false);
      }}
    >
      <button
        type="button"
        className={styles.control}
        aria-label={playing ? labels.pause : labels.play}
        onClick={togglePlaying}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path fill="currentColor" d={playing ? "M7 5h3v14H7zM14 5h3v14h-3z" : "M8 5v14l11-7z"} />
        </svg>
      </button>
      <div className={styles.slides} aria-live={rotating ? "off" : "polite"}>
        {slides.map((slide, i) => (
          <div
            key={i}
            className={styles.slide}
            role="group"
            aria-roledescription="slide"
            aria-label={fill(labels.slideOf, { n: i + 1, total })}
            hidden={i !== current}
          >
            <Picture
              image={slide.image}
              alt={slide.alt}
              className={styles.image}
              loading={i === 0 && !lazy ? "eager" : "lazy"}
              priority={i === 0 && !lazy}
            />
          </div>
        ))}
      </div>
    </section>
  );
}
