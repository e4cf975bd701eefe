import { Link } from "gatsby";
import type { Labels, MenuEntry, NavItem } from "../../types/content";
import { MenuIcon } from "./icons";
import { ServicesDropdown } from "./services-dropdown";
import * as styles from "./site-nav.module.css";

interface SiteNavProps {
  nav: readonly NavItem[];
  servicesMenu: readonly MenuEntry[];
  labels: Labels;
}

/**
 * Main navigation. At 768px and below the list collapses behind a hamburger; above it the list is
 * always shown and the hamburger is hidden (both by CSS, so the server HTML fits either). The
 * hamburger is a <details> toggle that opens the list by CSS: no page loads a script for it, so it
 * is the same in the built site, `npm run develop` and the studio's previews.
 */
export function SiteNav({ nav, servicesMenu, labels }: SiteNavProps) {
  return (
    <nav aria-label={labels.mainNav} className={styles.nav}>
      {/* Where React hydrates the page (develop, the studio), the visitor may have opened it first:
          its `open` attribute is theirs, not a mismatch. */}
      <details className={styles.menuToggle} suppressHydrationWarning>
        <summary className={styles.hamburger}>
          <ToggleFace className={styles.whenClosed} open={false} label={labels.menuOpen} />
          <ToggleFace className={styles.whenOpen} open label={labels.menuClose} />
        </summary>
      </details>
      <ul className={styles.list}>
        {nav.map((item) =>
          item.dropdown ? (
            <ServicesDropdown key={item.to} item={item} entries={servicesMenu} toggleLabel={labels.servicesToggle} />
          ) : (
            <li key={item.to}>
              <Link to={item.to} className={styles.link}>
                {item.label}
              </Link>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

/** Icon and name of the toggle in one state; CSS shows the face matching the state. */
function ToggleFace({ className, open, label }: { className?: string; open: boolean; label: string }) {
  return (
    <span className={className}>
      <MenuIcon open={open} />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
