import { useEffect, useState, type MouseEvent } from "react";
import type { SiteIdentity } from "../../types/content";
import { whatsappHref } from "../../utils/text";
import { ArrowUpIcon, ChatIcon } from "./icons";
import { useScriptTakeover } from "../../hooks/use-script-takeover";
import * as styles from "./floating-buttons.module.css";

/** Scroll offset (px) past which both buttons show (spec, section 9). */
export const SCROLL_THRESHOLD = 300;

/**
 * Follows the spec's state table literally: before any scroll the messaging button shows and
 * scroll-to-top does not; once the page has scrolled, both show exactly when past the threshold.
 * `null` is "not scrolled yet".
 */
function usePastThreshold() {
  const [past, setPast] = useState<boolean | null>(null);
  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      setPast(window.scrollY > SCROLL_THRESHOLD);
    };
    const onScroll = () => {
      if (!frame) frame = window.requestAnimationFrame(update);
    };
    // A reload restored mid-page counts as scrolled; at the top it keeps the initial state.
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the scroll position exists only in the browser
    if (window.scrollY > SCROLL_THRESHOLD) setPast(true);
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, []);
  return [past, setPast] as const;
}

/** Scrolls smoothly unless the visitor prefers reduced motion, and keeps "#top" out of the address. */
function scrollToTop(e: MouseEvent) {
  e.preventDefault();
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
}

/**
 * Scroll-to-top is a link to "#top" (no element has that id, so the browser scrolls to the top of
 * the page, smoothly where global.css allows): it works before and without JavaScript. Until the
 * scripts run, both links are in the HTML and CSS decides what shows (see the module's CSS); then
 * the state table above does, starting from the scroll position the page has at that moment.
 */
export function FloatingButtons({ site }: { site: SiteIdentity }) {
  const [past, setPast] = usePastThreshold();
  const scripted = useScriptTakeover(() => {
    if (window.scrollY > SCROLL_THRESHOLD) setPast(true);
  });
  const { messaging } = site;
  return (
    <div className={styles.floating} data-scripted={scripted}>
      {(!scripted || past === true) && (
        <a
          href="#top"
          className={`${styles.button} ${styles.top}`}
          aria-label={site.labels.scrollTop}
          onClick={scrollToTop}
        >
          <ArrowUpIcon />
        </a>
      )}
      {(!scripted || past !== false) && (
        <a
          className={`${styles.button} ${styles.chat}`}
          href={whatsappHref(messaging.number, messaging.greeting)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={messaging.label}
        >
          <ChatIcon />
        </a>
      )}
    </div>
  );
}
