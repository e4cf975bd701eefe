import * as React from "react";
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
 * Main navigation. At 768px and below the list collapses behind a hamburger button; above it the
 * list is always shown and the hamburger is hidden (both by CSS, so the server HTML fits either).
 */
export function SiteNav({ nav, servicesMenu, labels }: SiteNavProps) {
  const [menuOpen, setMenuOpen] = React.useState(false);
  const hamburgerRef = React.useRef<HTMLButtonElement>(null);
  const listId = React.useId();
  const closeMenu = () => setMenuOpen(false);

  return (
    <nav
      aria-label={labels.mainNav}
      className={styles.nav}
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !menuOpen) return;
        closeMenu();
        hamburgerRef.current?.focus();
      }}
    >
      <button
        ref={hamburgerRef}
        type="button"
        className={styles.hamburger}
        aria-expanded={menuOpen}
        aria-controls={listId}
        aria-label={menuOpen ? labels.menuClose : labels.menuOpen}
        onClick={() => setMenuOpen((open) => !open)}
      >
        <MenuIcon open={menuOpen} />
      </button>
      <ul id={listId} className={styles.list} data-open={menuOpen}>
        {nav.map((item) =>
          item.dropdown ? (
            <ServicesDropdown
              key={item.to}
              item={item}
              entries={servicesMenu}
              toggleLabel={labels.servicesToggle}
              onNavigate={closeMenu}
            />
          ) : (
            <li key={item.to}>
              <Link to={item.to} className={styles.link} onClick={closeMenu}>
                {item.label}
              </Link>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
