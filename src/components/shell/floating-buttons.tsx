import type { SiteIdentity } from "../../types/content";
import { whatsappHref } from "../../utils/text";
import { ArrowUpIcon, ChatIcon } from "./icons";
import * as styles from "./floating-buttons.module.css";

/**
 * Scroll-to-top is a link to "#top" (no element has that id, so the browser scrolls to the top of
 * the page, smoothly where global.css allows) and the messaging link opens the messaging app. Both
 * are in the HTML of every page; CSS decides what shows as the page scrolls (see the module's CSS),
 * so no page needs a script for them.
 */
export function FloatingButtons({ site }: { site: SiteIdentity }) {
  const { messaging } = site;
  return (
    <div className={styles.floating}>
      <a href="#top" className={`${styles.button} ${styles.top}`} aria-label={site.labels.scrollTop}>
        <ArrowUpIcon />
      </a>
      <a
        className={`${styles.button} ${styles.chat}`}
        href={whatsappHref(messaging.number, messaging.greeting)}
        target="_blank"
        rel="noopener noreferrer"
        aria-label={messaging.label}
      >
        <ChatIcon />
      </a>
    </div>
  );
}
