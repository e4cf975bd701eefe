import { memo, useCallback, useEffect, useId, useRef, useState } from "react";
import { Link } from "gatsby";
import type { Labels, MenuEntry, NavItem } from "../../types/content";
import { MenuIcon } from "./icons";
import { ServicesDropdown } from "./services-dropdown";
import { useScriptTakeover } from "../../hooks/use-script-takeover";
import * as styles from "./site-nav.module.css";

interface SiteNavProps {
  nav: readonly NavItem[];
  servicesMenu: readonly MenuEntry[];
  labels: Labels;
}

/**
 * Main navigation. At 768px and below the list collapses behind a hamburger; above it the list is
 * always shown and the hamburger is hidden (both by CSS, so the server HTML fits either). Before and
 * without JavaScript the hamburger is a <details> toggle that opens the list by CSS; once scripts
 * run it becomes a disclosure button that starts in the state the visitor left the toggle in.
 */
export function SiteNav({ nav, servicesMenu, labels }: SiteNavProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const [refocus, setRefocus] = useState(false);
  const hamburgerRef = useRef<HTMLButtonElement>(null);
  const summaryRef = useRef<HTMLElement>(null);
  const listId = useId();
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  const scripted = useScriptTakeover(() => {
    const summary = summaryRef.current;
    setMenuOpen(summary?.parentElement instanceof HTMLDetailsElement && summary.parentElement.open);
    setRefocus(summary !== null && document.activeElement === summary);
  });

  // The toggle the visitor had focused is replaced by the button: focus moves with it.
  useEffect(() => {
    if (refocus) hamburgerRef.current?.focus();
  }, [refocus]);

  return (
    // Escape anywhere in the navigation closes the mobile menu: a handler for the links and buttons inside.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <nav
      aria-label={labels.mainNav}
      className={styles.nav}
      onKeyDown={(e) => {
        if (e.key !== "Escape" || !menuOpen) return;
        closeMenu();
        hamburgerRef.current?.focus();
      }}
    >
      {scripted ? (
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
      ) : (
        // The visitor may open it before hydration: its `open` attribute is theirs, not a mismatch.
        <details className={styles.menuToggle} suppressHydrationWarning>
          <summary ref={summaryRef} className={styles.hamburger}>
            <ToggleFace className={styles.whenClosed} open={false} label={labels.menuOpen} />
            <ToggleFace className={styles.whenOpen} open label={labels.menuClose} />
          </summary>
        </details>
      )}
      <ul id={listId} className={styles.list} data-open={menuOpen}>
        <NavItems nav={nav} servicesMenu={servicesMenu} toggleLabel={labels.servicesToggle} onNavigate={closeMenu} />
      </ul>
    </nav>
  );
}

interface NavItemsProps {
  nav: readonly NavItem[];
  servicesMenu: readonly MenuEntry[];
  toggleLabel: string;
  onNavigate: () => void;
}

/**
 * The list's links, memoised: opening the menu and the hand-over to scripts re-render the nav, and
 * re-rendering every Link in the same task as hydration's effects cost tens of ms on a slow phone.
 */
const NavItems = memo(function NavItems({ nav, servicesMenu, toggleLabel, onNavigate }: NavItemsProps) {
  return nav.map((item) =>
    item.dropdown ? (
      <ServicesDropdown
        key={item.to}
        item={item}
        entries={servicesMenu}
        toggleLabel={toggleLabel}
        onNavigate={onNavigate}
      />
    ) : (
      <li key={item.to}>
        <Link to={item.to} className={styles.link} onClick={onNavigate}>
          {item.label}
        </Link>
      </li>
    ),
  );
});

/** Icon and name of the script-free toggle in one state; CSS shows the face matching the state. */
function ToggleFace({ className, open, label }: { className?: string; open: boolean; label: string }) {
  return (
    <span className={className}>
      <MenuIcon open={open} />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
